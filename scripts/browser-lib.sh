# What the browser scripts share (sourced): node and Chromium, or a reason to skip, and the
# Playwright driver they pin (scripts/browser, npm ci). `browser_ready NAME` exits 0 with a
# line saying why when this machine cannot run them, so CI runs them everywhere.
browser_ready() {
  command -v node >/dev/null || { echo "$1: no node here: skipped"; exit 0; }
  CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
  [ -n "$CHROMIUM" ] || { echo "$1: no chromium here: skipped"; exit 0; }
  export CHROMIUM
  (cd scripts/browser && npm ci --no-audit --no-fund --silent)
}
