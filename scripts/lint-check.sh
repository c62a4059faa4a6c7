#!/usr/bin/env bash
# Checks that the way scripts/test.sh denies lints still denies them: a scratch crate with this package's
# own [lints] tables, built as test.sh builds (clippy-driver as RUSTC_WORKSPACE_WRAPPER), must build clean
# code and must fail on a planted clippy lint and on a planted rustc warning. Takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/src"
{
  printf '[package]\nname = "planted-lint"\nversion = "0.0.0"\nedition = "2021"\n\n[workspace]\n\n'
  # This package's [lints.*] tables, each up to the next table.
  awk '/^\[/ { keep = /^\[lints(\.|\])/ } keep' Cargo.toml
} >"$scratch/Cargo.toml"
build() {
  printf '%s\n' "$1" >"$scratch/src/main.rs"
  RUSTC_WORKSPACE_WRAPPER=clippy-driver CARGO_TARGET_DIR="$scratch/target" \
    cargo build --quiet --manifest-path "$scratch/Cargo.toml" >"$scratch/log" 2>&1
}
build 'fn main() { println!("clean"); }' || { cat "$scratch/log" >&2; echo "lint-check: clean code did not build" >&2; exit 1; }
for planted in 'fn f() -> i32 { return 1; } fn main() { println!("{}", f()); }' \
  'fn main() { let unused = 1; println!("x"); }'; do
  if build "$planted" || ! grep -e "implied by \`-D" -e "#\[deny" "$scratch/log" >/dev/null; then
    cat "$scratch/log" >&2
    printf 'lint-check: a planted lint was not denied: %s\n' "$planted" >&2
    exit 1
  fi
done
echo "lint-check: clean code builds; a planted clippy lint and a planted rustc warning fail the build"
