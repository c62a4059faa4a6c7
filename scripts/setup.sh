#!/usr/bin/env bash
# Installs what Fencing Lab needs to build (with --browser, to test in browsers; with --real, the Redis, etcd,
# ZooKeeper and PostgreSQL servers `locksim real` and tests/real.rs start; with --book, mdbook, which builds
# the sample book docs/book), skipping whatever is present. Flags combine: `setup.sh --real --browser --book`. Works on a fresh Debian 12 machine with only Rust, Node and
# npm; nothing is downloaded at build or run time.
set -euo pipefail
browser=0
real=0
book=0
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    --real) real=1 ;;
    --book) book=1 ;;
    *) printf 'setup: unknown flag %s (flags: --browser, --real, --book)\n' "$arg" >&2; exit 2 ;;
  esac
done
# (No `grep -q` after a pipe: with pipefail, its early exit can fail the writer with SIGPIPE.)
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# mdbook 0.5, whose preprocessor protocol src/bin/mdbook-lock.rs speaks (the mdbook-preprocessor crate 0.5).
MDBOOK_VERSION=0.5.4
# wasm-bindgen-cli must equal the wasm-bindgen crate pinned in Cargo.toml.
WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml)
say() { printf 'setup: %s\n' "$*"; }
# Tools are built once and only run at build time: a cheap release profile for their install alone
# (no LTO, parallel codegen, -O1) halves the cold start; it does not touch the project's own profile.
fast_install="env CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=1"

rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null || {
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
}
for component in rustfmt clippy; do
  rustup component list --installed | grep "^$component" >/dev/null || rustup component add "$component"
done

if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 min on 2 cores)"
  # No --locked: one of its locked dependency versions is not on the registry.
  $fast_install cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [[ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]]; then
  say "installing trunk $TRUNK_VERSION (about 3 min on 2 cores)"
  # No default features: they only add TLS for downloading tools, and builds here run offline.
  $fast_install cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features
fi

if ((book)) && [[ "$(mdbook --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]]; then
  say "installing mdbook $MDBOOK_VERSION (about 4 min of CPU on 2 cores)"
  $fast_install cargo install mdbook --version "$MDBOOK_VERSION" --locked
fi

# wasm-opt (binaryen 132) and playwright-core come from npm, pinned in package-lock.json.
if [[ ! -x node_modules/.bin/wasm-opt || package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund
fi

missing=()
if ((browser)); then
  command -v chromium >/dev/null || missing+=(chromium)
  # The core flows run in Firefox too, over WebDriver BiDi (puppeteer-core from npm drives it).
  command -v firefox-esr >/dev/null || missing+=(firefox-esr)
  # Japanese glyphs for screenshots; a learner's own browser brings its own fonts.
  fc-list 2>/dev/null | grep -i "Noto Sans CJK" >/dev/null || missing+=(fonts-noto-cjk)
fi
if ((real)); then
  # Debian 12: Redis 7.0 and etcd 3.4. Installing does not start them; `locksim real` starts its own on
  # loopback and stops them. Redlock's clock jump needs nothing more: locksim compiles its preload library
  # (src/real/clockshift/lib.rs) with the rustc that builds the project.
  command -v redis-server >/dev/null || missing+=(redis-server)
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v etcdctl >/dev/null || missing+=(etcd-client)
  # ZooKeeper 3.8 and the Java it runs on; locksim runs its main class with `java` itself.
  [[ -f /usr/share/java/zookeeper.jar ]] || missing+=(zookeeper)
  command -v java >/dev/null || missing+=(default-jre-headless)
  # network-delay's storage server; locksim runs it as the package's `postgres` user in its own directory.
  compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
  # The Python reference lock client (examples/clients/python, on Debian's own python3) and its tests.
  /usr/bin/python3 -c "import redis" 2>/dev/null || missing+=(python3-redis)
  # The shell client the tests write from docs/clients.md alone talks to Redis with redis-cli (redis-tools).
  command -v redis-cli >/dev/null || missing+=(redis-tools)
fi
if ((${#missing[@]})); then
  say "installing ${missing[*]} with apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
say "ready"
