#!/usr/bin/env bash
# The window's CPU while nobody touches it: in the lobby (its first 10 s, while the host
# learns the laptop's clock and announces the table, then 20 s), then 20 s on the race screen
# at this pilot's own turn (nothing moves; only the bot countdown changes, every ten seconds
# until the last ten). Under Xvfb with
# Mesa's software GL, so a frame costs more here than on a laptop's GPU. With `mille-bornes`
# or `entenrallye`, the same at that game's table hosted from the window (its lobby, then this
# player's turn).
# With `join`, the window of a laptop that joins a Bolide table (`bolide-host serve`, from
# beside BOLIDE_BINARY, in its own process): what every laptop but the host's spends. Each
# stretch also says which threads spent it (to the nanosecond) and how many UDP datagrams a
# second this machine sent (the laptop's and the host's, both ways).
#
#   bash scripts/idle-cpu.sh [BOLIDE_BINARY] [mille-bornes|entenrallye|join]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/bolide}
OUT=
source scripts/window-lib.sh
if missing=$(window_tools_missing); then
  echo "idle cpu skipped: $missing is not installed (Debian: apt-get install xvfb xdotool imagemagick)"
  exit 0
fi
GAME=${2:-bolide}
export RUST_LOG="warn,bolide::frame=trace" # one line per frame drawn, counted below
case "$GAME" in
  mille-bornes | entenrallye) export WINDOW_SETTINGS="{\"name\": \"Anne\", \"host_game\": \"$GAME\", \"lang\": \"En\"}" ;;
esac
if [ "$GAME" = join ]; then
  host_dir=$(mktemp -d)
  "$(dirname "$BIN")/bolide-host" serve --bind 127.0.0.1:47311 --data-dir "$host_dir" --code GARAGE --no-mdns \
    --races 1 --bots 2 >"$host_dir/out" 2>&1 &
  host=$!
  until grep -qs "room code" "$host_dir/out"; do sleep 0.1; done
  code=$(sed -n 's/.*room code //p' "$host_dir/out")
fi
start_window "${WINDOW_GAME_DISPLAY:-88}"
if [ "$GAME" = join ]; then
  trap 'kill "$host" 2>/dev/null; rm -rf "$host_dir"; stop_window' EXIT
  click 200 126; xdotool type --delay 40 "Anne"
  click 650 245; xdotool key ctrl+a; xdotool type "127.0.0.1:47311"
  click 650 268; xdotool key ctrl+a; xdotool type "$code"
  click 640 294 # Join
  wait_title 'lobby'
  sleep 1
elif [ "$GAME" = bolide ]; then
  host_one_race_with_bots
else
  click 215 323 # Host a game (1000 Bornes to 5000 points, or an Entenrallye year; two bots)
  wait_title 'lobby'
  sleep 1
fi
xdotool mousemove 1200 780 # the pointer away from every widget
# The network and the embedded host (the thread bolide-net, the mDNS daemon) apart from the rest:
# the window's thread and Mesa's software rasteriser (llvmpipe) draw.
net_s() {
  local hz t sum=0
  hz=$(getconf CLK_TCK)
  for t in /proc/"$app"/task/*; do
    case "$(cat "$t/comm" 2>/dev/null)" in
      bolide-net | mDNS_daemon) sum=$(awk -v s="$sum" -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%.3f", s + ($12 + $13) / hz }' "$t/stat") ;;
    esac
  done
  echo "$sum"
}
frames() { grep -c 'bolide::frame' "$tmp/bolide.log" || true; }
# CPU ms by thread name (summed over threads of the same name), to the nanosecond
# (/proc/…/schedstat): where a measured stretch went. Threads that ended meanwhile are not in it.
threads_ms() {
  for t in /proc/"$app"/task/*; do
    printf '%s\t%s\n' "$(cat "$t/comm" 2>/dev/null)" "$(cut -d' ' -f1 "$t/schedstat" 2>/dev/null)"
  done | awk -F'\t' '$2 != "" { ms[$1] += $2 / 1e6 } END { for (n in ms) printf "%s\t%.3f\n", n, ms[n] }'
}
# UDP datagrams sent on this machine so far (the window's network namespace): on a quiet
# machine, the table's traffic between the laptop and the host, both ways, and mDNS.
udp() { awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $5; exit }' /proc/"$app"/net/snmp; }
where() { # where BEFORE AFTER: the threads that spent most between two threads_ms snapshots
  awk -F'\t' 'NR == FNR { b[$1] = $2; next } { d = $2 - b[$1]; if (d >= 0.5) printf "%s %.1f ms\n", $1, d }' \
    <(echo "$1") <(echo "$2") | sort -k2 -nr -t' ' | head -8 | paste -sd, - | sed 's/,/, /g; s/^/  where: /'
}
measure() { # measure LABEL SECONDS
  local before after net_before net_after f_before f_after t_before t_after u_before u_after
  before=$(cpu_s); net_before=$(net_s); f_before=$(frames); t_before=$(threads_ms); u_before=$(udp); sleep "$2"
  after=$(cpu_s); net_after=$(net_s); f_after=$(frames); t_after=$(threads_ms); u_after=$(udp)
  awk -v b="$before" -v a="$after" -v nb="$net_before" -v na="$net_after" -v s="$2" -v l="$1" \
    -v f=$((f_after - f_before)) 'BEGIN {
    printf "%s: %.2f %% of one core over %d s (network and host %.2f %%, drawing %.2f %%; %d frames)\n",
      l, (a - b) / s * 100, s, (na - nb) / s * 100, ((a - b) - (na - nb)) / s * 100, f }'
  where "$t_before" "$t_after"
  awk -v u=$((u_after - u_before)) -v s="$2" 'BEGIN { printf "  UDP datagrams sent, laptop and host together: %.1f a second\n", u / s }'
}
measure "lobby, first" 10
measure lobby 20
if [ "$GAME" = join ]; then click 300 220; else ready; fi # a joined lobby has no host's panel above
while ! title | grep -q "your turn"; do
  case "$(title)" in *"grab!"*) xdotool key 1 2 3 ;; esac
  [ $SECONDS -lt $deadline ] || { echo "idle cpu: no turn in time"; exit 1; }
  sleep 0.2
done
xdotool mousemove 1200 780
sleep 1
measure "game screen, waiting at own turn" 20
