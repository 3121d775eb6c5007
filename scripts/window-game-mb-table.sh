#!/usr/bin/env bash
# A 1000 Bornes table hosted from the real window: starts `bolide` under Xvfb with Host set
# to 1000 Bornes, hosts a one-hand game with two bots (the embedded host, played over QUIC on
# this laptop like any table), puts the hand flat in the lobby, and plays with the keyboard as
# a person would (1 picks the first card, Enter plays it where it can only go, D discards it;
# Space answers an attack with a Coup-Fourré). Saves screenshots of the lobby, a turn (and a
# Coup-Fourré window, when one lands on Anne) and the end of the game.
#
#   bash scripts/window-game-mb-table.sh [BOLIDE_BINARY] [SCREENSHOT_DIR]
#
# Needs what window-game.sh needs; says why and exits 0 when it is missing. Bounded: it gives
# up after 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/bolide}
OUT=${2:-docs/screenshots}
source scripts/window-lib.sh
window_script_ready "1000 Bornes table game"
export WINDOW_SETTINGS='{"name": "Anne", "host_game": "mille-bornes", "lang": "En"}'
start_window "${WINDOW_GAME_DISPLAY:-85}"
# The start screen at 1280x800, Host column: one hand (M-13.3), then Host a game.
click 150 265
click 215 323
wait_title '1000 Bornes — lobby'
sleep 1
shot mb-table-lobby
# "Put your hand flat on the table (ready)".
ready
play_mille_bornes_by_keys mb-table "1000 Bornes table game"
