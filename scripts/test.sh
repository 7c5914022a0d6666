#!/usr/bin/env bash
# Builds the package and runs every test; exits non-zero on any build error or test failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# --plotting and --browser: the report's tests use python3 with numpy, scipy and
# matplotlib, and headless Chromium; with TESTBED_REQUIRE_REPORT_TOOLS=1 a missing one fails
# those tests instead of skipping them, so CI always runs them.
# --sweep-tests: the scheduler tests (Tests/SweepTests) run GNU parallel, ssh and a one-node
# Slurm cluster for real; they fail, not skip, when these are missing.
# --engines: PostgreSQL (server and libpq) and DuckDB's Python package, for the baseline-engine
# tests (Tests/EnginesTests, PostgresClientTests, PostgresStoreTests, CommandLineTests), which run
# a real PostgreSQL server and a real DuckDB helper; with TESTBED_REQUIRE_ENGINES=1 a missing
# engine fails them instead of skipping.
bash scripts/setup.sh --plotting --browser --sweep-tests --engines
export TESTBED_REQUIRE_REPORT_TOOLS=1
export TESTBED_REQUIRE_ENGINES=1
# The suite runs optimised: a release build with -enable-testing (for @testable imports), in
# its own directory, .build-tests, so that it never rebuilds main.sh's .build/release with
# other flags. The test targets themselves stay unoptimised (Package.swift,
# `unoptimisedTests`). On 2 cores it builds in about 7 minutes against a debug build's 4, and
# its tests take 7 to 9 minutes against 18 (the verification grids run the engine some
# hundred thousand times; unoptimised Swift is about 7 times slower at it). What a debug
# build checks and -O would drop is put back: the engine's invariants on every run
# (TESTBED_VALIDATE=1, in the test process and in every testbed process a test starts) and
# the runtime exclusivity checks Package.swift leaves out of release QueryEngine (the last
# -enforce-exclusivity wins). Array bounds and integer overflow are checked under -O too;
# `assert`s, which -O drops, guard only two internal calls (sealed dictionaries). `swift
# test` in .build still runs the suite in debug.
export TESTBED_VALIDATE=1
build=(-c release -Xswiftc -enable-testing -Xswiftc -enforce-exclusivity=checked --scratch-path .build-tests)
fuzz_build=
fuzz_log="$(mktemp)"
trap '[ -n "$fuzz_build" ] && kill -- -"$fuzz_build" 2>/dev/null; rm -f "$fuzz_log"' EXIT
swift build "${build[@]}" --build-tests
# The parser fuzz builds in its own directory, .build-fuzz: -sanitize=fuzzer changes the flags
# of every Swift module it compiles. That build (about 4 CPU minutes) runs in the background
# at the lowest CPU priority while the tests run, taking what they leave idle (tests waiting
# on servers, the scheduler tests that run one at a time). Started beside the main build
# instead, it slowed that build from about 9 to 14 minutes. The fuzz itself (fixed
# iterations, libFuzzer's per-input timeout) runs after the tests at normal priority; its
# output follows theirs.
set -m  # the background build gets its own process group, ended with it if this script stops early
nice -n 19 bash scripts/fuzz.sh --build-only >"$fuzz_log" 2>&1 &
fuzz_build=$!
set +m
# Every test is XCTest; without --disable-swift-testing the run would close on Swift
# Testing's "Test run with 0 tests" line, which reads as no tests. --parallel runs the test
# methods in as many worker processes as there are cores (the suite takes about half the
# time on 2 cores); it prints "[n/N] Testing …" per test, the output of every failed test,
# and exits non-zero when any test fails. The scheduler tests, which start host-wide
# daemons, serialize themselves with a lock file. Tests that take long are split into
# several test methods (catalog verification by shard, plist verification by backend), so
# that the workers finish together.
tests=0
swift test "${build[@]}" --skip-build --disable-swift-testing --parallel || tests=$?
built=0
wait "$fuzz_build" || built=$?
fuzz_build=
echo "test.sh: the fuzz build (beside the tests):"
cat "$fuzz_log"
[ "$built" = 0 ] || { echo "test.sh: the fuzz build failed (exit $built)" >&2; exit 1; }
bash scripts/fuzz.sh --runs "${FUZZ_RUNS:-20000}"
[ "$tests" = 0 ] || { echo "test.sh: swift test failed (exit $tests); its summary is above the fuzz" >&2; exit "$tests"; }
echo "test.sh: the parser fuzz and every test passed"
