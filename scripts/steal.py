#!/usr/bin/env python3
"""A hypervisor's steal, played on this machine: every core is taken from everything else for
bursts of BURST_MIN..BURST_MAX ms, DUTY of the time in all, by a process per core at a real-time
priority above the timing scripts' instruments (SCHED_FIFO 90; the kernel still leaves the rest
5 % of each second). A virtual machine whose host runs other guests loses its cores this way
(`steal` in /proc/stat; docs/lab.md, "A starved page"). Needs the right to real-time priority
(root); says so and exits 1 without it. Bounded: it stops after SECONDS.

    python3 scripts/steal.py [DUTY=0.3] [SECONDS=300] [BURST_MIN_MS=10] [BURST_MAX_MS=120]
"""
import os
import random
import sys
import time


def hold(core, duty, seconds, burst_min, burst_max):
    os.sched_setaffinity(0, {core})
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(90))
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        burst = random.uniform(burst_min, burst_max)
        until = time.monotonic() + burst
        while time.monotonic() < until:
            pass
        # Free for as long, on average, as keeps the bursts DUTY of the time.
        time.sleep(burst * (1 - duty) / duty * random.uniform(0.5, 1.5))


def main():
    args = [float(a) for a in sys.argv[1:]]
    duty, seconds, burst_min, burst_max = (args + [0.3, 300, 10, 120][len(args):])[:4]
    if not 0 < duty < 1 or not 0 < burst_min <= burst_max:
        sys.exit("steal: DUTY in (0, 1), 0 < BURST_MIN_MS <= BURST_MAX_MS")
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(90))
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except PermissionError:
        sys.exit("steal: no right to a real-time priority here (run as root)")
    children = []
    for core in sorted(os.sched_getaffinity(0)):
        pid = os.fork()
        if pid == 0:
            hold(core, duty, seconds, burst_min / 1000, burst_max / 1000)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
