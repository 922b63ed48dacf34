#!/usr/bin/env python3
"""A fixed piece of work on this CPU, timed by the CPU clock: the host's speed now, for scripts/host-speed.sh.

    taskset -c CPU python3 scripts/host-speed-gauge.py   ->   "<compute ms> <memory ms>"

compute: integer arithmetic and branches in the interpreter; memory: a million reads at random over 64 MiB. The same
work every time, so a larger figure is a slower CPU (a busy SMT sibling, a lower clock), which steal does not show.
"""
import time

t = time.process_time()
acc = 0
for i in range(1_000_000):
    acc += (i * i) % 7 if i & 1 else i % 5
compute = time.process_time() - t

buf = bytearray(64 << 20)
mask = len(buf) - 1
j = 7
t = time.process_time()
for _ in range(1_000_000):
    j = (j * 1103515245 + 12345) & mask
    acc += buf[j]
memory = time.process_time() - t
print(f"{compute * 1e3:.1f} {memory * 1e3:.1f}")
