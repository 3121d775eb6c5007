#!/usr/bin/env bash
# Builds the browser's page — the egui client compiled to wasm32 (crate `bolide-web`) and its
# JavaScript glue — into OUT (default: target/web), the folder `bolide-host serve --web-page`
# serves from memory. Installs what it needs on first use: the wasm32 target and
# wasm-bindgen-cli at the version Cargo.lock pins (the glue and the crate must match).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web}"
profile="${BOLIDE_WEB_PROFILE:-web}"
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
    echo "installing wasm-bindgen-cli $want (was: ${have:-none})" >&2
    cargo install wasm-bindgen-cli --version "$want"
fi
cargo build -p bolide-web --target wasm32-unknown-unknown --profile "$profile"
target_dir="${CARGO_TARGET_DIR:-target}"
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section --out-dir "$out" "$target_dir/wasm32-unknown-unknown/$profile/bolide_web.wasm"
cp web/index.html "$out/"
# Each file beside its gzip: the host sends the smaller to a browser that takes gzip.
for f in "$out"/*.wasm "$out"/*.js; do gzip -9 -k -n "$f"; done
ls -l "$out" >&2
