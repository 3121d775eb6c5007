#!/usr/bin/env bash
# The README's lab profiles, one after another (about 4 minutes each on a quiet machine):
#   bash scripts/lab-profiles.sh [PROFILE...]      (default: all; JSON in docs/lab-PROFILE.json)
# Run nothing else meanwhile: the lab's injected delays are kept by a thread of its own, and a
# busy machine releases them late (each report says how late in "injection_lateness_us").
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p bolide-tests --bin bolide-lab
lab=${CARGO_TARGET_DIR:-target}/release/bolide-lab
common=(--players 6 --seed 1 --rounds 60)
declare -A flags=(
  [near]="--latency-ms 1,2,3,5,8,10 --jitter-ms 2 --loss 0.01 --reaction-ms 250,2"
  [wifi]="--latency-ms 1,2,3,5,8,10 --jitter-dist wifi --jitter-ms 20 --loss 0.01"
  [burst]="--burst-loss 0.01"
  [asym]="--up-latency-ms 10,0.1,40,2,150,80 --loss 0.01"
  [clocks]="--clock-step-ms 5 --slew-ppm 300 --loss 0.01"
  [screens]="--frame-hz 60 --send-delay-ms 20 --loss 0.01"
  [blackout]="--blackout-ms 300 --loss 0.01"
)
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(near wifi burst asym clocks screens blackout)
for p in "${profiles[@]}"; do
  [ -n "${flags[$p]:-}" ] || { echo "no profile $p (near wifi burst asym clocks screens blackout)" >&2; exit 2; }
  echo "== $p: bolide-lab ${common[*]} ${flags[$p]}"
  # shellcheck disable=SC2086
  "$lab" "${common[@]}" ${flags[$p]} --json "docs/lab-$p.json"
done
