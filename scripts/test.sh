#!/usr/bin/env bash
# Builds the package and runs every test; exits non-zero on any build error or test failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build
# swift test prints each suite's "Executed N tests, with M failures" summary and exits
# non-zero when any test fails. Every test is XCTest; without --disable-swift-testing the
# run would close on Swift Testing's "Test run with 0 tests" line, which reads as no tests.
swift test --disable-swift-testing
