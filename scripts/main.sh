#!/usr/bin/env bash
# The main job: builds in release mode and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift run -c release testbed demo
