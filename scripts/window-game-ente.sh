#!/usr/bin/env bash
# A whole year of Entenrallye in a real window: starts `bolide` under Xvfb with Practice set
# to Entenrallye, plays against three bots with the keyboard as a person would (xdotool: 1
# takes the first action offered, whatever the phase — the roll, a drive, a part to fit, the
# end of the turn), and saves screenshots of the start screen, the first turn, the board
# mid-year (Anne's 20th turn) and the year's end.
#
#   bash scripts/window-game-ente.sh [BOLIDE_BINARY] [SCREENSHOT_DIR]
#
# Needs what window-game.sh needs; says why and exits 0 when it is missing. Bounded: it gives
# up after 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/bolide}
OUT=${2:-docs/screenshots}
source scripts/window-lib.sh
window_script_ready "Entenrallye window game"
export WINDOW_SETTINGS='{"name": "Anne", "practice_game": "entenrallye", "lang": "En"}'
start_window "${WINDOW_GAME_DISPLAY:-85}"
# The start screen at 1280x800, Practice column: four players, bots that play to win, Practice.
click 1012 242
shot ente-start
click 962 277
wait_title 'Entenrallye'
shot_taken=""
turns=0
was_mine=""
while [ $SECONDS -lt $deadline ]; do
  case "$(title)" in
    *"your turn"*)
      [ -n "$was_mine" ] || turns=$((turns + 1))
      was_mine=yes
      [[ $shot_taken == *turn* ]] || { sleep 0.5; shot ente-turn; shot_taken+=" turn"; }
      if [ "$turns" -eq 20 ] && [[ $shot_taken != *midyear* ]]; then
        sleep 0.5; shot ente-midyear; shot_taken+=" midyear"
      fi
      xdotool key 1 ;;
    *) was_mine="" ;;&
    *"year over"*) sleep 1; shot ente-over; echo "Entenrallye window game: played to the end"; exit 0 ;;
  esac
  sleep 0.15
done
echo "Entenrallye window game: the year did not end in time (title: $(title))"
exit 1
