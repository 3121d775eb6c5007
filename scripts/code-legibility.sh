#!/usr/bin/env bash
# How far across a table the room code on the host's screen can be read, from a screenshot of
# the lobby (window-game.sh takes one: lobby.png, the window at 1280x800, one pixel a point):
#   bash scripts/code-legibility.sh SHOT.png [BAND] [CHARS]
# BAND is where the code's line is (ImageMagick geometry; default the lobby's, left of the QR
# code: 1060x70+100+48), CHARS its length (26: a drawn word, four groups of four, dashes).
# It measures the line's ink and its first character's height (the word is in capitals), then
# turns points into millimetres at what a laptop's screen gives a point at its usual scaling
# (0.20-0.25 mm) and prints the distances at which a capital spans 20 and 16 minutes of arc
# (the preferred and the least height for reading in ISO 9241-303) and 5 (the limit of 20/20
# vision, Snellen's letters). It says what the eye allows, not what a given person reads.
set -euo pipefail
shot=${1:?usage: code-legibility.sh SHOT.png [BAND]}
band=${2:-1060x70+100+48}
chars=${3:-26}
ink() { convert "$shot" -crop "$1" +repage -colorspace gray -threshold 50% -trim -format '%w %h %X %Y\n' info: | tr -d +; }
read -r w h x y < <(ink "$band")
IFS='x+' read -r _ _ bx by <<<"$band"
# The first character: one cell of the monospace line, from its left edge.
read -r cw ch _ _ < <(ink "$((w / chars))x${h}+$((bx + x))+$((by + y))")
echo "code line: ${w} x ${h} px of ink; first capital ${cw} x ${ch} px"
awk -v cap="$ch" -v line="$w" 'BEGIN {
  pi = atan2(0, -1)
  for (i = 0; i < 3; i++) {
    mm = (i == 0) ? 0.20 : (i == 1) ? 0.225 : 0.25
    h = cap * mm
    d20 = h / (2 * sin(20 / 60 * pi / 180 / 2)) / 1000
    d16 = h / (2 * sin(16 / 60 * pi / 180 / 2)) / 1000
    d5 = h / (2 * sin(5 / 60 * pi / 180 / 2)) / 1000
    printf "at %.3f mm a point: capitals %.1f mm, the line %.0f mm; read at ease to %.1f m (20 arcmin), at least to %.1f m (16), at the 20/20 limit to %.1f m (5)\n", mm, h, line * mm, d20, d16, d5
  }
}'
