#!/usr/bin/env bash
# Screenshot a URL in headless Chromium: scripts/shot.sh URL OUT.png [WIDTH] [HEIGHT]
set -euo pipefail
url=$1 out=$2 width=${3:-1280} height=${4:-900}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --disable-sync --disable-quic --no-first-run --hide-scrollbars --user-data-dir="$profile" \
  --virtual-time-budget=3000 --window-size="$width,$height" --screenshot="$out" "$url" 2>/dev/null
