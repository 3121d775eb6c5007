#!/usr/bin/env python3
"""The README's lab figures, from the JSON reports the lab writes.

    python3 scripts/lab-table.py docs/lab-near.json [more.json ...]

For each report: grab and Échange pairs at gaps >= 1 ms and 0.1-1 ms (fair host accuracy,
the 95 % Wilson interval's lower end in brackets, arrival order's range over all the buckets),
Klaxon by countdown / by real instants, commit delay, clock error, honest clamps, the
liar's kept advantage and the photo finish's error.
"""
import json
import math
import sys


def wilson_low(ok, n, z=1.959964):
    if n == 0:
        return float("nan")
    p = ok / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - r) / d


def pool(buckets, lo, hi):
    """Pairs, right and arrival range over the buckets whose gap lies in [lo, hi)."""
    n = ok = 0
    arrival = []
    for b in buckets:
        start, end = b["gap_ms"]
        if start < lo or (hi is not None and (end is None or end > hi)):
            continue
        if b["pairs"] == 0:
            continue
        n += b["pairs"]
        ok += round(b["pairs"] * b["accuracy"])
        if b.get("arrival_accuracy") is not None:
            arrival.append(b["arrival_accuracy"])
    return n, ok, arrival


def pct(x):
    s = f"{100 * x:.2f}".rstrip("0").rstrip(".")
    return s


def cell(buckets, lo, hi, with_arrival=False):
    n, ok, arrival = pool(buckets, lo, hi)
    if n == 0:
        return "—"
    acc = ok / n
    text = f"{pct(acc)} % of {n:,}".replace(",", " ")
    if ok == n:
        text = f"**{text}**"
    text += f" [{100 * wilson_low(ok, n):.1f}]"
    if n - ok:
        text += f" ({n - ok} wrong)"
    if with_arrival:
        _, _, arrival = pool(buckets, 0.0, None)
        text += f" / {100 * min(arrival):.0f}–{100 * max(arrival):.0f} %"
    return text


def row(path):
    d = json.load(open(path))
    e = d.get("echange", {})
    k = d["klaxon"]
    c = d["commit_delay_ms"]
    cells = [
        cell(d["buckets"], 1.0, None, with_arrival=True),
        cell(d["buckets"], 0.1, 1.0),
        cell(e.get("buckets", []), 1.0, None),
        cell(e.get("buckets", []), 0.1, 1.0),
        f"{pct(k['accuracy'])} % / {pct(k['real_time_accuracy'])} % of {k['pairs']}",
        f"{c['p50']:.3g} / {c['p99']:.3g} ms (p99.9 {c['p999']:.3g})",
        f"{d['clock_error_ms']['p99']:.3g} ms",
        str(d["honest_clamped"]),
    ]
    extra = [
        f"rounds {d['rounds']}",
        f"photo finish p99 {d['photo_finish_error_ms']['p99']} ms",
        f"Échange photo p99 {e.get('photo_finish_error_ms', {}).get('p99')} ms",
        f"untimed refused {d['untimed_refused']}",
        f"lateness {d['injection_lateness_us']}",
    ]
    liar = d.get("liar")
    if liar and liar.get("claimed_ms"):
        extra.append(
            f"liar kept p50 {liar['kept_ms']['p50']:.1f} p99 {liar['kept_ms']['p99']:.1f} ms, "
            f"taken back {liar['liar_clamped_ms_p50']:.1f}, wrongful {liar['wrongful_wins']} "
            f"of {liar['contested']}"
        )
    return "| " + " | ".join(cells) + " |", "; ".join(extra)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        r, extra = row(p)
        print(p)
        print(r)
        print("  ", extra)
