#!/usr/bin/env bash
# A browser hand's own stamps, measured from outside the page (scripts/browser/timing.mjs):
# the page's warm-up in headless Chromium, TRIALS grabs by key, click and touch with the
# machine idle, then TRIALS with every core kept busy by a spinning process (and, asked for,
# `awake`: idle with the cores kept from halting; `held`: the cores taken away in bursts, as a
# hypervisor's steal takes them — scripts/hogs.sh). Prints one JSON
# line per condition (p50/p99 of each error, ms) and writes them to OUT/browser-timing.json.
# PAGE_CLOCK=floor-1ms or jitter-1ms gives the page Safari's or Firefox's coarser clock
# (scripts/browser/lib.mjs, `emulatePageClock`).
#
#   [CONDITIONS="idle busy"] [ORIGIN=loopback] [PAGE_CLOCK=floor-1ms] bash scripts/browser-timing.sh HOST_BINARY BUNDLE_DIR [TRIALS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
HOST=${1:?host binary}
BUNDLE=${2:?bundle dir}
TRIALS=${3:-500}
OUT=${4:-$(mktemp -d)}
source scripts/browser-lib.sh
browser_ready "browser timing"
source scripts/hogs.sh
source scripts/lan.sh
trap 'stop_hogs; lan_down' EXIT
# The page at a LAN's address, as a guest's (its clock coarsened: scripts/lan.sh), unless
# ORIGIN=loopback asks for 127.0.0.1 (a secure context, cross-origin isolated: 5 µs).
[ "${ORIGIN:-lan}" = loopback ] || lan_up "browser timing" || true
mkdir -p "$OUT"
: >"$OUT/browser-timing.json"
for condition in ${CONDITIONS:-idle busy}; do
  [ "$condition" = busy ] && start_hogs
  [ "$condition" = awake ] && start_pollers
  [ "$condition" = held ] && start_stealers
  node scripts/browser/timing.mjs "$HOST" "$BUNDLE" "$TRIALS" "$condition" "$OUT/trials-$condition.json" |
    tee -a "$OUT/browser-timing.json"
  stop_hogs
done
