# Every core kept busy by a spinning process at the caller's own priority (sourced by the
# timing scripts' busy condition): `start_hogs`, `stop_hogs`.
hogs=()
start_hogs() {
  for _ in $(seq "$(nproc)"); do
    (while :; do :; done) &
    hogs+=($!)
  done
}
stop_hogs() { for h in "${hogs[@]}"; do kill "$h" 2>/dev/null || true; done; hogs=(); }
