#!/usr/bin/env bash
# The README's lab runs, one after another (about 4 minutes each on a quiet machine):
#   bash scripts/lab-profiles.sh [PROFILE...]      (default: all; JSON in docs/lab-PROFILE.json)
# Run nothing else meanwhile: the lab's injected delays are kept by a thread of its own, and a
# busy machine releases them late (each report says how late in "injection_lateness_us").
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p bolide-tests --bin bolide-lab
lab=${CARGO_TARGET_DIR:-target}/release/bolide-lab
declare -A flags=(
  [near]="--latency-ms 1,2,3,5,8,10 --jitter-ms 2 --loss 0.01 --reaction-ms 250,2 --rounds 60"
  [wifi]="--latency-ms 1,2,3,5,8,10 --jitter-dist wifi --jitter-ms 20 --loss 0.01 --rounds 60"
  [wifi-dynamic]="--latency-ms 1,2,3,5,8,10 --jitter-dist wifi-dynamic --jitter-ms 20 --loss 0.01 --rounds 60"
  [burst]="--burst-loss 0.01 --rounds 60"
  [asym]="--up-latency-ms 10,0.1,40,2,150,80 --loss 0.01 --rounds 60"
  [clocks]="--clock-step-ms 5 --slew-ppm 300 --loss 0.01 --rounds 60"
  [screens]="--frame-hz 60 --send-delay-ms 20 --loss 0.01 --rounds 60"
  [blackout]="--blackout-ms 300 --loss 0.01 --rounds 60"
  [liar]="--liar-ms 200 --loss 0.01 --rounds 40"
  [liar30]="--liar-ms 30 --loss 0.01 --rounds 40"
  [liar-silent]="--liar-ms 200 --liar-silent --loss 0.01 --rounds 40"
  [liar-hush]="--liar-ms 200 --liar-silent --liar-hush-after-ms 15 --loss 0.01 --rounds 40"
  [liar-fake]="--liar-ms 200 --liar-silent --liar-fake-silence-ms 150 --loss 0.01 --rounds 40"
  [liar-shown]="--liar-shown-ms 200 --loss 0.01 --rounds 40"
  [liar-answers]="--latency-ms 1,2,3,5,8,10 --jitter-ms 2 --loss 0.01 --liar-peeks --liar-hold-share 0.05 --liar-hold-ms 28 --rounds 40"
  [liar-acks]="--latency-ms 1,2,3,5,8,10 --jitter-ms 2 --loss 0.01 --liar-peeks --liar-ack-delay-ms 60 --liar-hold-share 0.05 --liar-hold-ms 200 --rounds 40"
)
all=(near wifi wifi-dynamic burst asym clocks screens blackout liar liar30 liar-silent liar-hush liar-fake liar-shown liar-answers liar-acks)
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=("${all[@]}")
for p in "${profiles[@]}"; do
  [ -n "${flags[$p]:-}" ] || { echo "no profile $p (${all[*]})" >&2; exit 2; }
  echo "== $p: bolide-lab --players 6 --seed 1 ${flags[$p]}"
  # shellcheck disable=SC2086
  "$lab" --players 6 --seed 1 ${flags[$p]} --json "docs/lab-$p.json"
done
