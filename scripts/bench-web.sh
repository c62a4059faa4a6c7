#!/usr/bin/env bash
# Builds the release bundle and reports: its size over the wire, drag and toggle latency and the page's
# search in headless Chromium (benches/web.mjs), then a slow phone's load and drag: figure painted, time to
# interactive, layout shift, bytes, the real-pointer drag at CPU×4, and the page without JavaScript
# (benches/load.mjs). RUNS=N sets how many loads each median takes (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
trunk build --release
node benches/web.mjs
node benches/load.mjs
