#!/usr/bin/env bash
# A whole game in a real window: starts `bolide` under Xvfb, hosts a one-race championship
# with two bots, plays it with the keyboard as a person would (xdotool), and saves screenshots
# of the start screen, the lobby, the cup, the grab, a turn and the podium; then back at the
# start screen opens the night's replay from Past nights and saves the replay four rounds in
# and the night's statistics.
#
#   bash scripts/window-game.sh [BOLIDE_BINARY] [SCREENSHOT_DIR]
#
# The window speaks French (WINDOW_LANG=en for English): the screens sit where the English
# ones do, and the titles the script follows are the same in both.
# Needs Xvfb, xdotool and ImageMagick's `import` (Debian: xvfb xdotool imagemagick) and the
# display libraries eframe loads; says why and exits 0 when they are missing, so CI can run it
# everywhere. The window's title names the screen it shows, which is how this script follows
# the game. Bounded: it gives up after 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/bolide}
OUT=${2:-docs/screenshots}
source scripts/window-lib.sh
window_script_ready "window game"
[ "${WINDOW_LANG:-fr}" = en ] || export WINDOW_SETTINGS='{"lang":"Fr"}'
start_window "${WINDOW_GAME_DISPLAY:-87}"
host_one_race_with_bots
shot lobby
ready
shot_taken=""
while [ $SECONDS -lt $deadline ]; do
  t=$(title)
  case "$t" in
    *"the cup is down"*) [[ $shot_taken == *cup* ]] || { sleep 0.3; shot cup; shot_taken+=" cup"; } ;;
    *"grab!"*)
      [[ $shot_taken == *grab* ]] || { sleep 0.15; shot grab; shot_taken+=" grab"; }
      xdotool key 1 2 3 ;;
    *"your turn"*)
      xdotool key r; sleep 0.5
      [[ $shot_taken == *turn* ]] || { shot turn; shot_taken+=" turn"; }
      xdotool key 9 8 7 6 5 4 3 2 1; sleep 0.5; xdotool key e ;;
    *"Échange"*) xdotool key Escape ;; # keep my pawn
    *podium*) sleep 1; shot podium; echo "window game: played to the podium"; break ;;
  esac
  sleep 0.2
done
[[ "$(title)" == *podium* ]] || { echo "window game: the championship did not end in time (title: $(title))"; exit 1; }
# The night is kept: Leave the table, then its replay from Past nights.
click 110 12
wait_title '^Bolide$'
sleep 0.5
shot past-nights
click 330 478
wait_title 'replay'
sleep 0.5
xdotool key Down Down Down Down; sleep 0.5
shot replay
click 624 35; sleep 0.5
shot replay-statistics
echo "window game: the night's replay opened from the start screen"
exit 0
