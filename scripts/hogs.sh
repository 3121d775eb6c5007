# The timing scripts' conditions besides idle (sourced): `start_hogs` keeps every core busy with
# a spinning process at the caller's own priority (busy); `start_pollers` keeps every core from
# halting with a spinner that runs only when the core has nothing else to run (SCHED_IDLE: any
# other thread that wakes takes the core at once) — idle, as a laptop's cores are, on a virtual
# machine whose halted cores its hypervisor wakes late (docs/lab.md). `stop_hogs` ends either.
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
stop_hogs() { for h in "${hogs[@]}"; do kill "$h" 2>/dev/null || true; done; hogs=(); }
