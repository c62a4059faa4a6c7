#!/usr/bin/env bash
# Builds the app (release) and serves it on http://127.0.0.1:8080, rebuilding on change.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# No autoreload: its injected inline script would break the page's Content-Security-Policy.
exec trunk serve --release --no-autoreload "$@"
