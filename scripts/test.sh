#!/usr/bin/env bash
# Every check that defines green: formatting, clippy (native and wasm), the core and CLI tests, the real
# runs on Redis, etcd, ZooKeeper and PostgreSQL, and the end-to-end
# tests against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --real --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }
# CI builds from scratch: incremental compilation only writes caches nobody reads there.
[[ -z "${CI:-}" ]] || export CARGO_INCREMENTAL=0

step "cargo fmt --check"
cargo fmt --all --check

# tests/real.rs runs `locksim real` on real redis-server, etcd, ZooKeeper and PostgreSQL processes (about
# 3.5 min, one run at a time; etcd runs at scale 1, register-token on etcd at 2); they fail, rather than
# skip, when the servers are missing. Those runs mostly sleep, so they go in the background as soon as they
# are built, and everything CPU-heavy runs beside them at the lowest priority (nice -n 19): a real run's
# process that wakes gets the CPU at once and keeps its timing. The other native tests (about 120 CPU
# seconds, 1.5 cores at most) go in the background too, after the release build, where the end-to-end tests
# leave most of a core idle.
step "build the native tests, then start the real-server ones in the background"
cargo test --locked --no-run
low="nice -n 19"
logs=$(mktemp -d)
# --nocapture: the log, shown when they end, says which runs were tried again for their timing.
setsid cargo test --locked --test real -- --nocapture >"$logs/real" 2>&1 &
real_pid=$!
native_pid=
wasm_clippy_pid=
# If a step fails, stop the tests in the background too (the conductor stops its servers on SIGTERM).
trap 'kill -TERM -- -"$real_pid" ${native_pid:+-"$native_pid"} ${wasm_clippy_pid:+-"$wasm_clippy_pid"} 2>/dev/null || true; rm -rf "$logs"' EXIT
# Waits for the background tests started as $1 (the pid) and shows their log ($2).
finish() {
  local status=0
  wait "$1" || status=$?
  cat "$logs/$2"
  return "$status"
}

# Clippy for wasm builds in a target directory of its own, in the background beside the native clippy,
# instead of waiting for the lock on target/ (neither keeps both cores busy alone).
step "in the background: clippy for wasm"
# The code the browser runs: the library and the binaries. Tests and benches only ever run natively, where
# the native clippy checks them.
CARGO_TARGET_DIR=target/wasm-clippy setsid $low cargo clippy --lib --bins --locked \
  --target wasm32-unknown-unknown -- -D warnings >"$logs/wasm-clippy" 2>&1 &
wasm_clippy_pid=$!

step "clippy, native, warnings denied (the app's code is checked by clippy for wasm)"
$low cargo clippy --all-targets --locked -- -D warnings

step "the [patch] stand-ins are the ones the browser build uses"
# A stand-in that stops applying (a version bump upstream) would silently bring the real crate back, and
# with it the bundle weight it was there to remove.
for crate in wasm-streams send_wrapper; do
  # (Without cargo's "Blocking waiting for file lock" line, which another cargo running at the same time
  # puts first.)
  tree=$(cargo tree --locked --target wasm32-unknown-unknown -i "$crate" 2>&1 | grep -v "^ *Blocking waiting for file lock")
  if ! printf '%s\n' "$tree" | head -1 | grep "(.*/vendor/" >/dev/null || printf '%s\n' "$tree" | grep "was not used" >/dev/null; then
    printf 'the [patch] for %s no longer applies:\n%s\n' "$crate" "$tree" >&2
    exit 1
  fi
done

step "release build"
$low trunk build --release

step "clippy for wasm, started beside the native clippy"
finish "$wasm_clippy_pid" wasm-clippy

step "core, command line and property tests (native), in the background"
others=()
for test in tests/*.rs; do
  [[ $test == tests/real.rs ]] || others+=(--test "$(basename "$test" .rs)")
done
setsid $low cargo test --locked --lib "${others[@]}" >"$logs/native" 2>&1 &
native_pid=$!

step "real-server tests (native), started after the native build"
finish "$real_pid" real

step "end-to-end tests: playwright-core driving Debian's Chromium"
# Two files at a time: a test mostly waits for the page (a navigation, a frame, a search's slices), and one
# file at a time left a core idle for a third of this step. Each file has its own server and browser.
node --test --test-concurrency=2 tests/e2e/

step "end-to-end tests, core flows: puppeteer-core driving Debian's Firefox ESR over WebDriver BiDi"
node --test --test-concurrency=1 tests/e2e-firefox/

step "core, command line and property tests (native), started after the release build"
finish "$native_pid" native
