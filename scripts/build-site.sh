#!/usr/bin/env bash
# Builds the static site to host anywhere: the release build (the page built at build time, its strict
# Content-Security-Policy, Subresource Integrity, the later panels' module and the recordings), with every
# address it writes under the public URL it will be served from.
#
# Usage: scripts/build-site.sh [--public-url /path/] [--out DIR]
#   --public-url  where the site is served from, as trunk takes it (default /): e.g. /courses/locks/ for
#                 https://example.org/courses/locks/. A missing trailing slash is added (as trunk does).
#   --out         the folder written (default site/); replaced whole, only once the build has succeeded.
# Then copy the folder's files to that place on any static host; the page is its index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
public_url=/
out=site
while (($#)); do
  case $1 in
    --public-url) public_url=${2:?--public-url needs a value}; shift 2 ;;
    --public-url=*) public_url=${1#*=}; shift ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'build-site.sh: unknown argument %s (see --help)\n' "$1" >&2; exit 2 ;;
  esac
done
[[ $public_url == */ ]] || public_url="$public_url/"
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Built as scripts/test.sh builds it (clippy-driver wrapping rustc for this package), so what is served is
# the very bundle the first-load budget was measured on: compiled through the wrapper, the wasm differs by
# a few hundred bytes.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
# Built into a fresh folder beside the target, then renamed into place: a build that fails, or one running
# at the same time, never leaves a half-written site (TOOLCHAIN.md).
out=${out%/}
mkdir -p "$(dirname "$out")"
fresh=$(mktemp -d "$out.building.XXXXXX")
chmod 755 "$fresh"
trap 'rm -rf "$fresh"' EXIT
trunk build --release --public-url "$public_url" --dist "$fresh"
rm -rf "$out"
mv "$fresh" "$out"
trap - EXIT
printf 'built %s for %s\n' "$out" "$public_url"
