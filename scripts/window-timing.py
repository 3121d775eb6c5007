#!/usr/bin/env python3
"""The window's own stamps, measured from outside it (fairness.md §2).

Drives the warm-up of a real `bolide` window (started by scripts/window-timing.sh under Xvfb,
with RUST_LOG=bolide::drill=debug): for each trial it reads from the window's log when the
reservoirs are due, polls one of their pixels through the X server until the frame that draws
them can be read back (the instant it reached the screen, within one poll), waits a human
reaction, then presses a key or clicks a reservoir through XTest — stamping every instant on
CLOCK_MONOTONIC, the clock the window's link reads (its zero is logged). It then compares
  shown error = the window's `shown` stamp - the instant the reservoirs' pixels were readable
  input error = the window's `input` stamp - the instant the key or button press was sent
and prints their p50/p99/max (ms) as JSON on the last line.

    window-timing.py LOG TRIALS LABEL TRIALS_JSON
"""
import ctypes
import json
import random
import re
import sys
import time

LOG, TRIALS, LABEL, TRIALS_JSON = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
# A pixel inside the first reservoir, and the point a click aims at (the window at 0,0, as
# Xvfb places it with no window manager): the cup there is grey, a reservoir is coloured.
PIXEL = (185, 165)
CLICK = (245, 220)
KEYS = ["1", "2", "3", "4", "5", "6"]

x11 = ctypes.CDLL("libX11.so.6")
xtst = ctypes.CDLL("libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XGetImage.restype = ctypes.c_void_p
x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                          ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
x11.XGetPixel.restype = ctypes.c_ulong
x11.XGetPixel.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
x11.XDestroyImage.argtypes = [ctypes.c_void_p]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XKeysymToKeycode.restype = ctypes.c_ubyte
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x11.XStringToKeysym.restype = ctypes.c_ulong
x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]

dpy = x11.XOpenDisplay(None)
if not dpy:
    sys.exit("window-timing: cannot open the display")
root = x11.XDefaultRootWindow(dpy)
ZPIXMAP, ALL_PLANES = 2, 0xFFFFFFFF


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def pixel():
    image = x11.XGetImage(dpy, root, PIXEL[0], PIXEL[1], 1, 1, ALL_PLANES, ZPIXMAP)
    if not image:
        return None
    value = x11.XGetPixel(image, 0, 0)
    x11.XDestroyImage(image)
    return value


def grey(p):
    r, g, b = (p >> 16) & 255, (p >> 8) & 255, p & 255
    return max(r, g, b) - min(r, g, b) < 12


ANSI = re.compile(r"\x1b\[[0-9;]*m")
FIELD = re.compile(r"(\w+)=(-?\d+)")


class Log:
    """The window's drill lines, read as they come."""

    def __init__(self, path):
        self.file = open(path, encoding="utf-8", errors="replace")
        self.zero_ns = None
        self.trials = {}  # trial -> {"reveal_at_us", "shown_us", "input_us"}
        self.last_cup = 0

    def read(self):
        for line in self.file:
            line = ANSI.sub("", line)
            if "bolide::drill" not in line:
                continue
            fields = {k: int(v) for k, v in FIELD.findall(line)}
            if "zero_ns" in fields:
                self.zero_ns = fields["zero_ns"]
            trial = fields.get("trial")
            if trial is None:
                continue
            t = self.trials.setdefault(trial, {})
            t.update({k: v for k, v in fields.items() if k != "trial"})
            if "reveal_at_us" in fields:
                self.last_cup = max(self.last_cup, trial)

    def wait(self, pred, timeout_s=10.0):
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            self.read()
            if pred():
                return True
            time.sleep(0.002)
        return False

    def mono_ns(self, us):
        return self.zero_ns + us * 1000


def press(kind):
    """A key (press, release) or a click on a reservoir; returns when the press was sent."""
    if kind == "key":
        code = x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(random.choice(KEYS).encode()))
        xtst.XTestFakeKeyEvent(dpy, code, 1, 0)
        x11.XFlush(dpy)
        sent = now_ns()
        time.sleep(random.uniform(0.05, 0.09))  # a finger's hold
        xtst.XTestFakeKeyEvent(dpy, code, 0, 0)
    else:
        xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
        x11.XFlush(dpy)
        sent = now_ns()
        time.sleep(random.uniform(0.06, 0.11))
        xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
    x11.XFlush(dpy)
    return sent


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def next_cup(trial):
    """Waits for the cup after `trial`. A press the warm-up did not take (one that landed as the
    result was being drawn, on a busy machine) is made again, once, before giving up."""
    if log.wait(lambda: log.last_cup > trial, timeout_s=5.0):
        return
    print(f"trial {trial}: no next cup within 5 s: pressing again", file=sys.stderr)
    press("key")
    if not log.wait(lambda: log.last_cup > trial, timeout_s=5.0):
        sys.exit("window-timing: the next cup did not come")


log = Log(LOG)
if not log.wait(lambda: log.zero_ns is not None and log.last_cup > 0):
    sys.exit("window-timing: the warm-up logged no trial (RUST_LOG=bolide::drill=debug?)")
# The pointer rests on the first reservoir: a click needs no move at the reveal.
xtst.XTestFakeMotionEvent(dpy, -1, CLICK[0], CLICK[1], 0)
x11.XFlush(dpy)
random.seed(LABEL)
shown_err, input_err, rows, missed = [], [], [], 0
done = 0
while done < TRIALS:
    trial = log.last_cup
    if not log.wait(lambda: "reveal_at_us" in log.trials.get(trial, {})):
        sys.exit("window-timing: no cup")
    due = log.mono_ns(log.trials[trial]["reveal_at_us"])
    if due - now_ns() < 5_000_000:
        # Already (nearly) shown when this script came to it: not measured; on to the next.
        time.sleep(max(0, (due - now_ns()) / 1e9) + 0.1)
        press("key")
        next_cup(trial)
        continue
    # Sleep to 3 ms before the reveal is due, then poll the pixel until it is a reservoir's.
    wait_s = (due - now_ns()) / 1e9 - 0.003
    if wait_s > 0:
        time.sleep(wait_s)
    before = now_ns()
    seen = None
    while now_ns() - due < 2_000_000_000:
        asked = now_ns()
        p = pixel()
        if p is not None and not grey(p):
            answered = now_ns()
            # The pixels changed between the previous poll's answer and this one's: the
            # midpoint of this poll, within half of it.
            seen = (asked + answered) // 2, (answered - before) // 2
            break
        before = now_ns()
    if seen is None:
        sys.exit(f"window-timing: trial {trial}: the reservoirs never showed at {PIXEL}")
    time.sleep(random.uniform(0.15, 0.35))  # a person's reaction
    kind = "key" if done % 2 == 0 else "click"
    sent = press(kind)
    if not log.wait(lambda: "input_us" in log.trials.get(trial, {}) and "shown_us" in log.trials[trial]):
        # Not measured; pressed again so the warm-up goes on.
        missed += 1
        print(f"trial {trial}: the window logged no input", file=sys.stderr)
        press("key")
    else:
        t = log.trials[trial]
        s_err = (log.mono_ns(t["shown_us"]) - seen[0]) / 1e6
        i_err = (log.mono_ns(t["input_us"]) - sent) / 1e6
        shown_err.append(s_err)
        input_err.append(i_err)
        rows.append({"trial": trial, "kind": kind, "shown_ms": round(s_err, 3), "input_ms": round(i_err, 3),
                     "poll_ms": round(seen[1] / 1e6, 3)})
        done += 1
    # The next cup (the result stays 1.2 s).
    next_cup(trial)

with open(TRIALS_JSON, "w") as out:
    json.dump(rows, out)


def summary(xs):
    """The size of the error (p50, p99 of |error|) and its sign (median, extremes)."""
    size = [abs(x) for x in xs]
    return {"p50": round(percentile(size, 50), 3), "p99": round(percentile(size, 99), 3),
            "median": round(percentile(xs, 50), 3), "min": round(min(xs), 3), "max": round(max(xs), 3)}


print(json.dumps({"label": LABEL, "trials": len(rows), "missed": missed, "shown_error_ms": summary(shown_err),
                  "input_error_ms": summary(input_err),
                  "input_error_ms_key": summary([r["input_ms"] for r in rows if r["kind"] == "key"]),
                  "input_error_ms_click": summary([r["input_ms"] for r in rows if r["kind"] == "click"]),
                  "poll_half_width_ms": summary([r["poll_ms"] for r in rows])}))
