#!/usr/bin/env bash
# The window's own stamps, measured from outside it: the warm-up of a real window under Xvfb,
# driven through XTest by scripts/window-timing.py (keys and clicks at recorded instants on
# CLOCK_MONOTONIC; the reservoirs' pixels polled from the X server), TRIALS grabs with the
# machine idle, then TRIALS with every core kept busy by a spinning process at the window's
# own priority. Prints one JSON line per condition (p50/p99 of each error, ms) and writes them
# to OUT_DIR/window-timing.json.
#
#   [CONDITIONS="idle busy"] bash scripts/window-timing.sh [BOLIDE_BINARY] [TRIALS] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/bolide}
TRIALS=${2:-500}
OUT=${3:-$(mktemp -d)}
source scripts/window-lib.sh
window_script_ready "window timing"
command -v python3 >/dev/null || { echo "window timing skipped: python3 is not installed"; exit 0; }
export RUST_LOG="warn,bolide::drill=debug"
export WINDOW_SETTINGS='{"name": "Anne", "lang": "En"}'
export WINDOW_DEADLINE_S=$((TRIALS * 12 + 300))
start_window "${WINDOW_GAME_DISPLAY:-89}"
click 1110 300 # Warm up, beside Practice
wait_title 'warm-up'
sleep 1
# The display server and the poller (below) at a real-time priority where allowed: they are
# the instrument here, and the spinners must load the window, not what watches it.
chrt -f -p 10 "$xvfb" 2>/dev/null || echo "window timing: Xvfb at its usual priority (chrt not allowed)"
source scripts/hogs.sh
trap 'stop_hogs; stop_window' EXIT
: >"$OUT/window-timing.json"
for condition in ${CONDITIONS:-idle busy}; do
  [ "$condition" = busy ] && start_hogs
  # The poller at a real-time priority where allowed, so that the window's own drawing (Mesa
  # spreads it over every core) does not hold back the instant it sees the pixels.
  rt=()
  chrt -f 10 true 2>/dev/null && rt=(chrt -f 10)
  "${rt[@]}" python3 scripts/window-timing.py "$tmp/bolide.log" "$TRIALS" "$condition" "$OUT/trials-$condition.json" |
    tee -a "$OUT/window-timing.json"
  stop_hogs
done
shot_dir=$OUT
OUT=$shot_dir shot warm-up >/dev/null
