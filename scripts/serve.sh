#!/usr/bin/env bash
# Builds the app (release) and serves it on http://127.0.0.1:8080, rebuilding on change.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Built as scripts/test.sh builds it (clippy-driver wrapping rustc for this package), so what is served is
# the very bundle the first-load budget was measured on: compiled through the wrapper, the wasm differs by
# a few hundred bytes.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
# No autoreload: its injected inline script would break the page's Content-Security-Policy.
exec trunk serve --release --no-autoreload "$@"
