#!/usr/bin/env bash
# Builds the browser's page — the egui client compiled to wasm32 (crate `bolide-web`) and its
# JavaScript glue — into OUT (default: target/web), the folder `bolide-host serve --web-page`
# serves from memory. Installs what it needs on first use: the wasm32 target and
# wasm-bindgen-cli at the version Cargo.lock pins (the glue and the crate must match).
#   bash scripts/build-web.sh [OUT]
#   bash scripts/build-web.sh --dist    the page built into the host (with web/index.html): its
#                                       gzipped glue and module in web/dist/, and web/dist/SOURCE,
#                                       the sources they were built from (scripts/web-source.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web}"
dist=
if [ "$out" = --dist ]; then
  dist=web/dist
  out="${CARGO_TARGET_DIR:-target}/web-dist"
fi
profile="${BOLIDE_WEB_PROFILE:-web}"
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
    echo "installing wasm-bindgen-cli $want (was: ${have:-none})" >&2
    cargo install wasm-bindgen-cli --version "$want"
fi
# The same bytes from any clone and target folder: the crates' sources are named without the
# folder Cargo keeps them in (the workspace's own are relative already), so CI can rebuild the
# page built into the host and compare (scripts/web-source.sh --same-as).
cargo_home=$(realpath -m "${CARGO_HOME:-$HOME/.cargo}")
export RUSTFLAGS="--remap-path-prefix=$cargo_home=/cargo"
cargo build -p bolide-web --target wasm32-unknown-unknown --profile "$profile"
target_dir="${CARGO_TARGET_DIR:-target}"
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section --out-dir "$out" "$target_dir/wasm32-unknown-unknown/$profile/bolide_web.wasm"
cp web/index.html "$out/"
# Each file beside its gzip: the host sends the smaller to a browser that takes gzip.
for f in "$out"/*.wasm "$out"/*.js; do gzip -9 -k -n "$f"; done
ls -l "$out" >&2
if [ -n "$dist" ]; then
  rm -rf "$dist"
  mkdir -p "$dist"
  cp "$out"/*.gz "$dist/"
  bash scripts/web-source.sh > "$dist/SOURCE"
  ls -l "$dist" >&2
fi
