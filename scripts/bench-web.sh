#!/usr/bin/env bash
# Builds the release bundle and reports its size over the wire and the drag latency in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
trunk build --release
node benches/web.mjs
