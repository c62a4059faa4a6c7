#!/usr/bin/env bash
# Every check that defines green: formatting, clippy (native and wasm, in the builds), the core and CLI
# tests, the real runs on Redis, etcd, ZooKeeper and PostgreSQL, and the end-to-end tests against the
# release build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --real --browser --book
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }
# CI builds from scratch: incremental compilation only writes caches nobody reads there.
[[ -z "${CI:-}" ]] || export CARGO_INCREMENTAL=0

step "cargo fmt --check"
cargo fmt --all --check

# Clippy lints this package's own crates in the builds the tests need anyway, the native test build and the
# release build for the browser: clippy-driver wraps rustc for them as cargo's RUSTC_WORKSPACE_WRAPPER (the
# way `cargo clippy` runs it), and Cargo.toml's [lints] tables deny its lints and rustc's warnings. Two
# separate check builds of every dependency, native and wasm, would cost a fresh clone's run about 4 CPU
# minutes more. scripts/lint-check.sh makes sure a planted lint still fails such a build.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
step "a planted lint fails the build"
scripts/lint-check.sh

# tests/real.rs runs `locksim real` on real redis-server, etcd, ZooKeeper and PostgreSQL processes (about
# 3.5 min, one run at a time; etcd runs at scale 1, register-token on etcd at 2); they fail, rather than
# skip, when the servers are missing. Those runs mostly sleep, so they go in the background as soon as they
# are built, and everything CPU-heavy runs beside them at the lowest priority (nice -n 19): a real run's
# process that wakes gets the CPU at once and keeps its timing. The other native tests (about 70 CPU
# seconds) go in the background at once too: they fill the core the release build leaves idle while it
# links (one core's work for half a minute).
step "build the native tests, clippy's lints denied; then run them in the background"
cargo test --locked --all-targets --no-run
# tests/clients.rs runs the Rust reference client as target/debug/examples/lock-client: `cargo test` builds
# examples only under a hashed name, so the plain one comes from `cargo build`.
cargo build --locked --examples
low="nice -n 19"
logs=$(mktemp -d)
# --nocapture: the log, shown when they end, says which runs were tried again for their timing.
# tests/clients.rs (`locksim check` with real lock clients, about 15 s) runs after them in the same job:
# its runs keep their timing only at normal priority too.
setsid cargo test --locked --test real --test clients -- --nocapture >"$logs/real" 2>&1 &
real_pid=$!
others=()
for test in tests/*.rs; do
  [[ $test == tests/real.rs || $test == tests/clients.rs ]] || others+=(--test "$(basename "$test" .rs)")
done
setsid $low cargo test --locked --lib "${others[@]}" >"$logs/native" 2>&1 &
native_pid=$!
# If a step fails, stop the tests in the background too (the conductor stops its servers on SIGTERM).
trap 'kill -TERM -- -"$real_pid" -"$native_pid" 2>/dev/null || true; rm -rf "$logs"' EXIT
# Waits for the background tests started as $1 (the pid) and shows their log ($2).
finish() {
  local status=0
  wait "$1" || status=$?
  cat "$logs/$2"
  return "$status"
}

step "the [patch] stand-ins are the ones the browser build uses"
# A stand-in that stops applying (a version bump upstream) would silently bring the real crate back, and
# with it the bundle weight it was there to remove.
for crate in wasm-streams send_wrapper; do
  # The tree's root is its first line naming the crate: cargo may print other lines first ("Blocking
  # waiting for file lock" beside another cargo, "Downloading crates" on a fresh machine).
  tree=$(cargo tree --locked --target wasm32-unknown-unknown -i "$crate" 2>&1)
  root=$(printf '%s\n' "$tree" | grep -m1 "^$crate v" || true)
  if [[ $root != *"/vendor/"* ]] || printf '%s\n' "$tree" | grep "was not used" >/dev/null; then
    printf 'the [patch] for %s no longer applies:\n%s\n' "$crate" "$tree" >&2
    exit 1
  fi
done

step "the sample book (docs/book) built by the real mdbook with mdbook-lock"
# mdbook-lock was built with the native tests; mdbook finds it on PATH. The chapter must hold its three
# figures (the fences' scripts drawn, with their verdicts and links to the lab) and no fence left over. The
# book stays (in $logs, removed on exit): tests/e2e/book.test.mjs follows its links in Chromium.
book="$logs/book"
PATH="${CARGO_TARGET_DIR:-$PWD/target}/debug:$PATH" mdbook build docs/book --dest-dir "$book"
chapter="$book/fencing.html"
figures=$(grep -o '<div id="lock-[0-9a-f]*-[0-9]" class="fencing-lab"' "$chapter" | wc -l)
links=$(grep -o '<a href="http://127.0.0.1:8080/?script=' "$chapter" | wc -l)
for want in 'data-outcome="fenced"' 'data-outcome="corrupted"' 'lang="ja"' '>Open in the lab</a>' 'ラボで開く'; do
  grep -F "$want" "$chapter" >/dev/null || { printf 'the built book lacks %s\n' "$want" >&2; exit 1; }
done
if [[ $figures != 3 || $links != 3 ]] || grep -F 'language-lock' "$chapter" >/dev/null; then
  printf 'the built book has %s figures and %s links (3 each) or a fence left over: %s\n' "$figures" "$links" "$chapter" >&2
  exit 1
fi
export FENCING_LAB_BOOK="$book"

step "release build, clippy's lints denied for wasm"
$low trunk build --release

step "budgets (gzip -9: the first load at most 160,000 B, the later loads 400,000 B)"
node scripts/budget.mjs dist

step "the site for hosting under a path (scripts/build-site.sh --public-url /courses/locks/)"
# A second release build (wasm-bindgen, wasm-opt and the hooks again; the compiled crates are reused), into
# a temporary folder removed on exit: tests/e2e/subpath.test.mjs serves it under that path.
$low scripts/build-site.sh --public-url /courses/locks/ --out "$logs/subpath-site"
export FENCING_LAB_SUBPATH_SITE="$logs/subpath-site"

step "end-to-end tests: playwright-core driving Debian's Chromium"
node --test --test-concurrency=1 tests/e2e/

step "end-to-end tests, core flows: puppeteer-core driving Debian's Firefox ESR over WebDriver BiDi"
node --test --test-concurrency=1 tests/e2e-firefox/

step "core, command line and property tests (native), started after their build"
finish "$native_pid" native

step "real-server and lock-client tests (native), started after their build"
finish "$real_pid" real
