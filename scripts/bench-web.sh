#!/usr/bin/env bash
# Builds the release bundle and reports: its size over the wire, drag and toggle latency and the page's
# search in headless Chromium (benches/web.mjs), then a slow phone's load and drag: figure painted, time to
# interactive, layout shift, bytes, the real-pointer drag at CPU×4, and the page without JavaScript
# (benches/load.mjs). RUNS=N sets how many loads each median takes (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Built as scripts/test.sh builds it (clippy-driver wrapping rustc for this package), so what is served is
# the very bundle the first-load budget was measured on: compiled through the wrapper, the wasm differs by
# a few hundred bytes.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
trunk build --release
node benches/web.mjs
node benches/load.mjs
