#!/usr/bin/env bash
# A whole game in a real window: starts `bolide` under Xvfb, hosts a one-race championship
# with two bots, plays it with the keyboard as a person would (xdotool), and saves screenshots
# of the start screen, the lobby, the cup, the grab, a turn and the podium.
#
#   bash scripts/window-game.sh [BOLIDE_BINARY] [SCREENSHOT_DIR]
#
# Needs Xvfb, xdotool and ImageMagick's `import` (Debian: xvfb xdotool imagemagick) and the
# display libraries eframe loads; says why and exits 0 when they are missing, so CI can run it
# everywhere. The window's title names the screen it shows, which is how this script follows
# the game. Bounded: it gives up after 6 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/bolide}
OUT=${2:-docs/screenshots}
for tool in Xvfb xdotool import; do
  if ! command -v "$tool" >/dev/null; then
    echo "window game skipped: $tool is not installed (Debian: apt-get install xvfb xdotool imagemagick)"
    exit 0
  fi
done
[ -x "$BIN" ] || { echo "window game: no binary at $BIN (cargo build --release -p bolide-client)"; exit 1; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
export DISPLAY=":${WINDOW_GAME_DISPLAY:-87}"
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" RUST_LOG=warn
Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb=$!
app=
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
sleep 1
"$BIN" >"$tmp/bolide.log" 2>&1 &
app=$!
deadline=$((SECONDS + 360))

title() { xdotool search --name '^Bolide' getwindowname 2>/dev/null | head -1 || true; }
wait_title() { # wait until the title matches $1
  while ! title | grep -q -- "$1"; do
    [ $SECONDS -lt $deadline ] || { echo "window game: no '$1' in time (title: $(title))"; tail -5 "$tmp/bolide.log"; exit 1; }
    kill -0 "$app" 2>/dev/null || { echo "window game: bolide exited"; cat "$tmp/bolide.log"; exit 1; }
    sleep 0.2
  done
}
shot() { import -window root "$OUT/$1.png"; echo "screenshot $OUT/$1.png"; }
click() { xdotool mousemove "$1" "$2" click 1; sleep 0.4; }

wait_title '^Bolide$'
sleep 1
# The start screen at 1280x800: the name field, the races of "Host a game", its button.
click 200 126; xdotool type --delay 40 "Anne"; sleep 0.3
click 143 263; xdotool key ctrl+a; xdotool type "1"; xdotool key Return; sleep 0.3
shot start
click 215 321
wait_title 'lobby'
sleep 1
shot lobby
# "Put your hand flat on the table (ready)"
click 160 "${READY_Y:-420}"
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
    *podium*) sleep 1; shot podium; echo "window game: played to the podium"; exit 0 ;;
  esac
  sleep 0.2
done
echo "window game: the championship did not end in time (title: $(title))"
exit 1
