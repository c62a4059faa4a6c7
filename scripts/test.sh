#!/usr/bin/env bash
# Every check that defines green: formatting, clippy (native and wasm), the core and CLI tests, the real
# runs on Redis, etcd, ZooKeeper and PostgreSQL, the browser tests (wasm-bindgen-test in headless Chromium) and the end-to-end
# tests against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --real --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

step "clippy, native and wasm, warnings denied"
cargo clippy --all-targets --locked -- -D warnings
# Benches are native only (criterion); everything else is checked for the browser too.
cargo clippy --lib --bins --tests --locked --target wasm32-unknown-unknown -- -D warnings

step "the [patch] stand-ins are the ones the browser build uses"
# A stand-in that stops applying (a version bump upstream) would silently bring the real crate back, and
# with it the bundle weight it was there to remove.
for crate in wasm-streams send_wrapper; do
  tree=$(cargo tree --locked --target wasm32-unknown-unknown -i "$crate" 2>&1)
  if ! printf '%s\n' "$tree" | head -1 | grep "(.*/vendor/" >/dev/null || printf '%s\n' "$tree" | grep "was not used" >/dev/null; then
    printf 'the [patch] for %s no longer applies:\n%s\n' "$crate" "$tree" >&2
    exit 1
  fi
done

# This also runs tests/real.rs: `locksim real` on real redis-server, etcd, ZooKeeper and PostgreSQL
# processes (about 3 min, one run at a time; etcd runs at scale 1); they fail, rather than skip, when the
# servers are missing.
step "core, command line, property and real-server tests (native)"
cargo test --locked

step "browser tests: wasm-bindgen-test in headless Chromium"
CHROMEDRIVER=$(command -v chromedriver) WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test --locked --target wasm32-unknown-unknown --test web

step "release build"
trunk build --release

step "end-to-end tests: playwright-core driving Debian's Chromium"
node --test --test-concurrency=1 tests/e2e/

step "end-to-end tests, core flows: puppeteer-core driving Debian's Firefox ESR over WebDriver BiDi"
node --test --test-concurrency=1 tests/e2e-firefox/
