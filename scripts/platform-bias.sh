#!/usr/bin/env bash
# A browser seat against a window, timed the same way in one run: for each condition (the
# machine idle, then every core kept busy), TRIALS grabs in the real window under Xvfb
# (scripts/window-timing.sh) and TRIALS in the page in headless Chromium
# (scripts/browser-timing.sh), back to back; then the two platforms' reaction errors compared
# (scripts/platform-bias.py: fails when they differ by more than 1 ms). Writes the trials and
# OUT/platform-bias.json.
#
#   [CONDITIONS="idle busy"] bash scripts/platform-bias.sh BOLIDE_BINARY HOST_BINARY BUNDLE_DIR [TRIALS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
BOLIDE=${1:?the window binary}
HOST=${2:?host binary}
BUNDLE=${3:?bundle dir}
TRIALS=${4:-200}
OUT=${5:-$(mktemp -d)}
mkdir -p "$OUT"
: >"$OUT/platform-bias.json"
for condition in ${CONDITIONS:-idle busy}; do
  CONDITIONS=$condition bash scripts/window-timing.sh "$BOLIDE" "$TRIALS" "$OUT/window"
  CONDITIONS=$condition bash scripts/browser-timing.sh "$HOST" "$BUNDLE" "$TRIALS" "$OUT/browser"
  python3 scripts/platform-bias.py "$condition" "$OUT/window/trials-$condition.json" \
    "$OUT/browser/trials-$condition.json" | tee -a "$OUT/platform-bias.json"
done
