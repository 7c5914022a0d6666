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
swift build
# Every test is XCTest; without --disable-swift-testing the run would close on Swift
# Testing's "Test run with 0 tests" line, which reads as no tests. --parallel runs the test
# methods in as many worker processes as there are cores (the suite takes about half the
# time on 2 cores); it prints "[n/N] Testing …" per test, the output of every failed test,
# and exits non-zero when any test fails. The scheduler tests, which start host-wide
# daemons, serialize themselves with a lock file.
# The fixed-iteration fuzz of the query and config parsers runs first (its own build dir,
# .build-fuzz, reused between runs), so that `swift test`'s summary stays the last output.
bash scripts/fuzz.sh --runs "${FUZZ_RUNS:-20000}"
swift test --disable-swift-testing --parallel
echo "test.sh: the parser fuzz and every test passed"
