#!/usr/bin/env bash
# A mixed table in a fairness field run: two seats in Chromium (the page the host serves) and
# two native `bolide-bot --fairness-test` laptops against `bolide-host serve --fairness-test`
# (scripts/browser/field.mjs), the host at a LAN's address in a network namespace of its own
# (scripts/lan.sh; ORIGIN=loopback: on 127.0.0.1). Writes the host's report and a summary to
# OUT; fails unless no honest request was clamped, none left behind by a verdict that stopped
# waiting for its seat but a page's one in ten (it has neither cores nor a GPU of its own
# here) where that changed no order, every pair 1 ms or more apart was ordered right, and
# enough of them had the pages' stamps trusted (where a bot cannot run at a real-time
# priority, every laptop one in ten held, and a wrong pair with such a request excused).
#
# PAGE_LOG=vouch: the pages' beats and presses kept in OUT/Browser-N.log (scripts/vouch-log.py
# reads them).
# DELIVERY_LAG_MS=30[,0]: the pages' presses handed to them that long after their stamps, as a
# phone's are (scripts/browser/field.mjs). HELD=1: the machine's cores taken away in bursts
# meanwhile, as a hypervisor's steal takes them (scripts/steal.py; docs/lab.md).
#
#   [ORIGIN=loopback] [DELIVERY_LAG_MS=0] [HELD=1] bash scripts/browser-field.sh HOST_BINARY BOT_BINARY BUNDLE_DIR [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
HOST=${1:?host binary}
BOT=${2:?bot binary}
BUNDLE=${3:?bundle dir}
OUT=${4:-$(mktemp -d)}
source scripts/browser-lib.sh
browser_ready "browser field run"
source scripts/lan.sh
source scripts/hogs.sh
trap 'stop_hogs; lan_down' EXIT
[ "${ORIGIN:-lan}" = loopback ] || lan_up "browser field run" || true
[ "${HELD:-0}" = 1 ] && start_stealers
node scripts/browser/field.mjs "$HOST" "$BOT" "$BUNDLE" "$OUT"
