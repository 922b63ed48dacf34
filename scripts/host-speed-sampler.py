#!/usr/bin/env python3
"""The CPU's speed while a fork runs beside it: every 100 ms a fixed piece of work (about 3 ms), timed by the CPU clock,
one line each, "<epoch ms> <ms of CPU it took>", until SECONDS pass (it stops by itself) or it is ended.

    taskset -c CPU python3 scripts/host-speed-sampler.py SECONDS > samples.txt

Timed by the process's CPU clock, so time spent waiting for the CPU is not in it: a larger figure is a slower CPU.
"""
import sys
import time

if len(sys.argv) != 2 or not sys.argv[1].isdigit():
    sys.exit("usage: host-speed-sampler.py SECONDS")
end = time.monotonic() + int(sys.argv[1])
acc = 0
while time.monotonic() < end:
    started = time.process_time()
    for i in range(20_000):
        acc += (i * i) % 7 if i & 1 else i % 5
    took = time.process_time() - started
    print(f"{time.time() * 1e3:.0f} {took * 1e3:.3f}", flush=True)
    time.sleep(0.1)
