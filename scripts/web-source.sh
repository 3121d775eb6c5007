#!/usr/bin/env bash
# The sources the browser's page is built from, as one SHA-256: every file of the workspace
# crates `bolide-web` is built from for wasm32 (their tests, benches and examples aside, and the
# built page itself), the crates it is built with (versions and features, as Cargo resolves
# them), the release and web profiles of the workspace's manifest, and the scripts that build it.
# `scripts/build-web.sh --dist` writes it to web/dist/SOURCE beside the page built into the
# host; `scripts/web-source.sh --check` (CI) fails when the page was built from other sources,
# and `scripts/web-source.sh --same-as OUT` when a page just built into OUT (`build-web.sh OUT`)
# is not, byte for byte, the one built into the host.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tree=$(cargo tree -p bolide-web --target wasm32-unknown-unknown -e normal,build --prefix none --format '{p} {f}' \
  | sed "s# ($root/# (#; s# (\*)\$##" | LC_ALL=C sort -u)
# The workspace's own crates: those Cargo names by their folder.
crates=$(sed -n 's/^[^ ]* [^ ]* (\([^)]*\)).*/\1/p' <<<"$tree" | sort -u | while read -r d; do
  if [ -f "$d/Cargo.toml" ]; then echo "$d"; fi; done)
sum=$( {
    printf '%s\n' "$tree"
    # The profiles the page is built with (`web` inherits `release`); the tests' `dev` is not.
    awk '/^\[/ { keep = ($0 ~ /^\[profile\.(release|web)[].]/) } keep' Cargo.toml
    # shellcheck disable=SC2086
    { git ls-files --cached --others --exclude-standard -- $crates | grep -Ev '^[^/]+/(tests|benches|examples|dist)/'
      printf '%s\n' scripts/build-web.sh scripts/web-source.sh; } \
      | LC_ALL=C sort -u | while read -r f; do [ -f "$f" ] && sha256sum "$f"; done
  } | sha256sum | cut -d' ' -f1)
if [ "${1:-}" = --same-as ]; then
  out=${2:?usage: web-source.sh --same-as OUT}
  for f in bolide_web_bg.wasm bolide_web.js; do
    gunzip -c "web/dist/$f.gz" | cmp - "$out/$f" || {
      echo "web/dist/$f.gz is not the page just built in $out: run 'bash scripts/build-web.sh --dist' and commit web/dist/" >&2
      exit 1
    }
  done
  echo "web/dist/ is, byte for byte, the page built in $out"
elif [ "${1:-}" = --check ]; then
  built=$(cat web/dist/SOURCE 2>/dev/null || echo none)
  if [ "$built" != "$sum" ]; then
    echo "web/dist/ (the page built into the host) was built from other sources than these ($built, now $sum):" >&2
    echo "run 'bash scripts/build-web.sh --dist' and commit web/dist/" >&2
    exit 1
  fi
  echo "web/dist/ was built from these sources ($sum)"
else
  echo "$sum"
fi
