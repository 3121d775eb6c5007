#!/usr/bin/env python3
"""Whether a browser seat's reactions are timed as a window's are (issue: no bias between a
browser seat and a native one larger than 1 ms). Reads the per-trial files the two stamp
harnesses write under the same conditions (scripts/window-timing.sh, scripts/browser-timing.sh:
each trial's `shown_ms` — the stamp minus when the pixels were up — and `input_ms` — the stamp
minus when the press was sent), takes each trial's reaction error (`input_ms - shown_ms`: what
the host's reaction is off by), and compares the two platforms: mean, p50, p99 of each, the
difference of the means with a 95 % bootstrap interval, and the share of trials whose error
is under 1 ms either way. Prints one JSON line; exits 1 when the difference's interval reaches
past 1 ms either way.

    python3 scripts/platform-bias.py LABEL WINDOW_TRIALS.json BROWSER_TRIALS.json
"""
import json
import random
import sys

BOUND_MS = 1.0
RESAMPLES = 2000


def errors(path):
    with open(path) as f:
        rows = json.load(f)
    return [r["input_ms"] - r["shown_ms"] for r in rows]


def pct(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def mean(xs):
    return sum(xs) / len(xs)


def figures(xs):
    return {"trials": len(xs), "mean": round(mean(xs), 3), "p50": round(pct(xs, 50), 3),
            "p99": round(pct(xs, 99), 3), "abs_p99": round(pct([abs(x) for x in xs], 99), 3)}


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    label, window_path, browser_path = sys.argv[1:]
    window, browser = errors(window_path), errors(browser_path)
    if len(window) < 20 or len(browser) < 20:
        print(f"platform bias: too few trials ({len(window)}, {len(browser)})", file=sys.stderr)
        sys.exit(1)
    # The seed is fixed: the interval is the same on every run of the same files.
    rng = random.Random(1)
    diffs = sorted(mean(rng.choices(browser, k=len(browser))) - mean(rng.choices(window, k=len(window)))
                   for _ in range(RESAMPLES))
    low, high = diffs[int(0.025 * RESAMPLES)], diffs[int(0.975 * RESAMPLES) - 1]
    report = {"label": label, "window_reaction_error_ms": figures(window),
              "browser_reaction_error_ms": figures(browser),
              "browser_minus_window_mean_ms": round(mean(browser) - mean(window), 3),
              "ci95_ms": [round(low, 3), round(high, 3)], "bound_ms": BOUND_MS}
    print(json.dumps(report))
    if low < -BOUND_MS or high > BOUND_MS:
        print(f"platform bias: a browser's reactions are off from a window's by {low:.3f}..{high:.3f} ms "
              f"(95 %), past {BOUND_MS} ms", file=sys.stderr)
        sys.exit(1)


main()
