#!/usr/bin/env bash
# Guests play from a browser: builds nothing, takes a host binary and the page's folder
# (`scripts/build-web.sh OUT`, or `built-in`: the page built into the host) and runs, in Debian's Chromium, headless, scripts/browser/game.mjs
# (a Bolide championship to the podium, a phone's wrong word, a phone watching, a phone racing
# by touch with its Klaxon and Échanges) and
# scripts/browser/games.mjs (a 1000 Bornes hand with its Coup-Fourré windows called, an
# Entenrallye turn, a phone watching each). Screenshots go to OUT.
#
#   bash scripts/browser-game.sh HOST_BINARY BUNDLE_DIR|built-in [OUT]
#
# Needs node (20 or later) and chromium (Debian: chromium); says why and exits 0 when they
# are missing, so CI runs it everywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
HOST=${1:?host binary}
BUNDLE=${2:?bundle dir}
OUT=${3:-$(mktemp -d)}
source scripts/browser-lib.sh
browser_ready "browser game"
node scripts/browser/game.mjs "$HOST" "$BUNDLE" "$OUT"
node scripts/browser/games.mjs "$HOST" "$BUNDLE" "$OUT"
