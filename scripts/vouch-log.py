#!/usr/bin/env python3
"""Beats that vouched past a press still on its way, from a page's console.

    PAGE_LOG=vouch [HELD=1] bash scripts/browser-field.sh … OUT
    python3 scripts/vouch-log.py OUT/Browser-1.log OUT/Browser-2.log

The page logs every beat (`due`, `now_us`, `vouchable`: µs on the client's clock) and every
press its listener learnt of (`time_stamp`, `now`: ms of `performance.now()`). The two clocks
differ by a constant offset, read from each grab's `timed … input_us` against the press just
delivered before it. A beat that left between a press's stamp and its delivery and vouched past
the stamp is what the host bounds that press by (fairness.md §7); for each, the hold-up the
page's beats found just before it (`beat::Away`) and how long after it the press came.
"""
import collections
import re
import sys

BEAT = re.compile(r"message=beat (?:due=(\d+) )?now_us=(\d+) vouchable=(\d+)")
DELIVERED = re.compile(r"message=delivered time_stamp=([\d.]+) now=([\d.]+)")
TIMED = re.compile(r"message=timed .*input_us=(\d+)")
AWAY_MS = 8.0


def read(path):
    beats, presses, offsets, recent = [], [], collections.Counter(), []
    for line in open(path, encoding="utf-8", errors="replace"):
        if m := BEAT.search(line):
            due, now, vouched = m.groups()
            beats.append(((int(due) if due else int(now)) / 1000, int(now) / 1000, int(vouched) / 1000))
        elif m := DELIVERED.search(line):
            stamp, learnt = float(m.group(1)), float(m.group(2))
            presses.append((stamp, learnt))
            recent = (recent + [stamp])[-3:]
        elif m := TIMED.search(line):
            for stamp in recent:
                offsets[round(stamp - int(m.group(1)) / 1000, 1)] += 1
    offset = offsets.most_common(1)[0][0] if offsets else 0.0
    return beats, [(s - offset, d - offset) for s, d in presses], offset


def main(paths):
    for path in paths:
        beats, presses, offset = read(path)
        lags = sorted(d - s for s, d in presses) or [0.0]
        print(f"{path}: {len(beats)} beats, {len(presses)} presses (clock offset {offset} ms); "
              f"delivered after their stamps p50 {lags[len(lags) // 2]:.1f} ms, max {lags[-1]:.1f} ms")
        past = 0
        for stamp, delivered in presses:
            beat = next(((due, now, v) for due, now, v in beats if stamp < now < delivered and v > stamp), None)
            if beat is None:
                continue
            past += 1
            _, now, vouched = beat
            away = [(n - d, n) for d, n, _ in beats if n <= now and n - d > AWAY_MS and n >= stamp - 200]
            held = f"a {away[-1][0]:.1f} ms hold-up ended {delivered - away[-1][1]:.1f} ms before the press came" if away else "no hold-up found"
            print(f"  beat at {now:.1f} vouched {vouched - stamp:.1f} ms past a press stamped {stamp:.1f}, "
                  f"delivered {delivered - stamp:.1f} ms after it (the beat held back {now - vouched:.1f} ms); {held}")
        print(f"  beats past a press: {past}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
