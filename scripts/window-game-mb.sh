#!/usr/bin/env bash
# A whole 1000 Bornes game in a real window: starts `bolide` under Xvfb with Practice set to
# 1000 Bornes, plays a one-hand game at the largest table, eight players in four teams of two
# (M-2.2: Anne and seven bots), with the keyboard as a person would (xdotool: 1 picks the first
# card, Enter plays it where it can only go, D discards it; Space answers an attack with a
# Coup-Fourré), and saves screenshots of the start screen, a turn at the table of 8, a
# Coup-Fourré window and the score sheet at the end.
#
#   bash scripts/window-game-mb.sh [BOLIDE_BINARY] [SCREENSHOT_DIR]
#
# Needs what window-game.sh needs; says why and exits 0 when it is missing. Bounded: it gives
# up after 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/bolide}
OUT=${2:-docs/screenshots}
source scripts/window-lib.sh
window_script_ready "1000 Bornes window game"
export WINDOW_SETTINGS='{"name": "Anne", "practice_game": "mille-bornes", "lang": "En"}'
start_window "${WINDOW_GAME_DISPLAY:-86}"
# The start screen at 1280x800, Practice column: 8 players, one hand, bots that play to win,
# Practice.
click 999 219; click 998 242; click 1012 265
shot mb-start
click 1060 300
wait_title '1000 Bornes'
play_mille_bornes_by_keys mb-8 "1000 Bornes window game"
