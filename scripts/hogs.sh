# The timing scripts' conditions besides idle (sourced): `start_hogs` keeps every core busy with
# a spinning process at the caller's own priority (busy); `start_pollers` keeps every core from
# halting with a spinner that runs only when the core has nothing else to run (SCHED_IDLE: any
# other thread that wakes takes the core at once) — idle, as a laptop's cores are, on a virtual
# machine whose halted cores its hypervisor wakes late (docs/lab.md). `stop_hogs` ends any of them.
hogs=()
start_hogs() {
  for _ in $(seq "$(nproc)"); do
    (while :; do :; done) &
    hogs+=($!)
  done
}
start_pollers() {
  for _ in $(seq "$(nproc)"); do
    chrt -i 0 bash -c 'while :; do :; done' &
    hogs+=($!)
  done
}
# `start_stealers`: every core taken from everything else in bursts of 10–120 ms, 30 % of the
# time (scripts/steal.py: a hypervisor's steal, played here; at most 10 minutes).
start_stealers() {
  python3 scripts/steal.py "${STEAL_DUTY:-0.3}" 600 &
  hogs+=($!)
}
stop_hogs() { for h in "${hogs[@]}"; do pkill -P "$h" 2>/dev/null || true; kill "$h" 2>/dev/null || true; done; hogs=(); }
