# Shared by the scripts that drive the real window under Xvfb (sourced, not run).
# Sets DISPLAY, starts Xvfb and `bolide` ($BIN) with a throw-away config, and gives:
#   title, wait_title PATTERN, click X Y, shot NAME (into $OUT), host_one_race_with_bots,
#   play_mille_bornes_by_keys.
# Needs Xvfb, xdotool and ImageMagick's `import`; `window_tools_missing` says which is absent.

window_tools_missing() {
  for tool in Xvfb xdotool import; do
    command -v "$tool" >/dev/null || { echo "$tool"; return 0; }
  done
  return 1
}

# The checks every window script makes first: exits 0 (skipped) without the display tools,
# 1 without the binary; makes the screenshot folder.
window_script_ready() { # window_script_ready SCRIPT_NAME
  local missing
  if missing=$(window_tools_missing); then
    echo "$1 skipped: $missing is not installed (Debian: apt-get install xvfb xdotool imagemagick)"
    exit 0
  fi
  [ -x "$BIN" ] || { echo "$1: no binary at $BIN (cargo build --release -p bolide-app)"; exit 1; }
  mkdir -p "$OUT"
}

start_window() { # start_window DISPLAY_NUMBER
  tmp=$(mktemp -d)
  export DISPLAY=":$1"
  export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" RUST_LOG="${RUST_LOG:-warn}"
  # The scripts click where the English screens put things: the window speaks English here
  # whatever the machine's language (a French desktop gets French by default).
  export LC_ALL=C.UTF-8
  Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
  xvfb=$!
  app=
  trap stop_window EXIT
  # Wait for the display to answer (Xvfb can take more than a second on a busy machine).
  local waited=0
  until xdotool getdisplaygeometry >/dev/null 2>&1; do
    [ $waited -lt 100 ] || { echo "window: Xvfb did not start"; cat "$tmp/xvfb.log"; exit 1; }
    sleep 0.1; waited=$((waited + 1))
  done
  # A script may hand the window its remembered settings (the game Practice plays, a name).
  if [ -n "${WINDOW_SETTINGS:-}" ]; then
    mkdir -p "$XDG_CONFIG_HOME/bolide"
    printf '%s' "$WINDOW_SETTINGS" >"$XDG_CONFIG_HOME/bolide/settings.json"
  fi
  "$BIN" >"$tmp/bolide.log" 2>&1 &
  app=$!
  deadline=$((SECONDS + ${WINDOW_DEADLINE_S:-600}))
  wait_title '^Bolide$'
  sleep 1
  # No window manager under Xvfb: give the window the keyboard, as a click would on a desktop.
  xdotool windowfocus --sync "$(xdotool search --name '^Bolide' | head -1)"
}

stop_window() {
  [ -n "${app:-}" ] && kill "$app" 2>/dev/null || true
  kill "${xvfb:-}" 2>/dev/null || true
  rm -rf "${tmp:-/nonexistent}"
}

title() { xdotool search --name '^Bolide' getwindowname 2>/dev/null | head -1 || true; }

wait_title() { # wait until the window's title (which names its screen) matches $1
  while ! title | grep -q -- "$1"; do
    [ $SECONDS -lt $deadline ] || { echo "window: no '$1' in time (title: $(title))"; tail -5 "$tmp/bolide.log"; exit 1; }
    kill -0 "$app" 2>/dev/null || { echo "window: bolide exited"; cat "$tmp/bolide.log"; exit 1; }
    sleep 0.2
  done
}

shot() { import -window root "$OUT/$1.png"; echo "screenshot $OUT/$1.png"; }
click() { xdotool mousemove "$1" "$2" click 1; sleep 0.4; }

# The start screen at 1280x800: the name, one race, two bots (the default), "Host a game".
host_one_race_with_bots() {
  click 200 126; xdotool type --delay 40 "Anne"; sleep 0.3
  click 143 265; xdotool key ctrl+a; xdotool type "1"; xdotool key Return; sleep 0.3
  [ -z "${OUT:-}" ] || shot start
  click 215 323
  wait_title 'lobby'
  sleep 1
}

# "Put your hand flat on the table (ready)" in the lobby.
ready() { click 300 324; }

# Plays a 1000 Bornes game shown in the window to its end by keys, as a person would: on
# your turn 1 picks the first card, Enter plays it where it can only go, D discards it; Space
# answers an attack on your side with a Coup-Fourré. Screenshots PREFIX-turn, PREFIX-coup-fourre
# and PREFIX-score; exits 0 at the end of the game, 1 past the deadline.
play_mille_bornes_by_keys() { # play_mille_bornes_by_keys PREFIX NAME
  local shot_taken="" t
  while [ $SECONDS -lt $deadline ]; do
    t=$(title)
    case "$t" in
      *"your turn"*)
        [[ $shot_taken == *turn* ]] || { sleep 0.3; shot "$1-turn"; shot_taken+=" turn"; }
        xdotool key 1; sleep 0.1; xdotool key Return; sleep 0.1; xdotool key d ;;
      *"Coup-Fourré?"*)
        [[ $shot_taken == *coup* ]] || { sleep 0.3; shot "$1-coup-fourre"; shot_taken+=" coup"; }
        xdotool key space ;;
      *"game over"*) sleep 1; shot "$1-score"; echo "$2: played to the end"; exit 0 ;;
    esac
    sleep 0.2
  done
  echo "$2: the game did not end in time (title: $(title))"
  exit 1
}

# CPU seconds (user + system) the app has used so far, from /proc.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15) / hz }' "/proc/$app/stat"; }
