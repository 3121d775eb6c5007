#!/usr/bin/env bash
# A guest plays from a browser: builds nothing, takes a host binary and the page's folder
# (`scripts/build-web.sh`), installs the Playwright driver it pins (scripts/browser, npm ci)
# and runs scripts/browser/game.mjs in Debian's Chromium, headless. Screenshots go to OUT.
#
#   bash scripts/browser-game.sh HOST_BINARY BUNDLE_DIR [OUT]
#
# Needs node (20 or later) and chromium (Debian: chromium); says why and exits 0 when they
# are missing, so CI runs it everywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
HOST=${1:?host binary}
BUNDLE=${2:?bundle dir}
OUT=${3:-$(mktemp -d)}
command -v node >/dev/null || { echo "browser game: no node here: skipped"; exit 0; }
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
[ -n "$CHROMIUM" ] || { echo "browser game: no chromium here: skipped"; exit 0; }
export CHROMIUM
(cd scripts/browser && npm ci --no-audit --no-fund --silent)
node scripts/browser/game.mjs "$HOST" "$BUNDLE" "$OUT"
