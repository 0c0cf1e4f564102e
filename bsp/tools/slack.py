#!/usr/bin/env python3
"""Every path that misses the clock, from a placed and routed design's
delays (the SDF nextpnr writes with `--sdf`), grouped by the register it
ends at: nextpnr's log names one critical path a run (8 minutes on a full
HX8K), this lists all the failing ones at once.

    nextpnr-ice40 ... --timing-allow-fail --sdf top.sdf
    python3 bsp/tools/slack.py top.sdf [PERIOD_NS] [-v]

PERIOD_NS is the clock period to check against (default 10: 100 MHz).
Prints, worst first, each register (or block RAM) that some path reaches
too late: its worst slack, how many of its inputs fail, and where its worst
path starts; with -v, the hops of that path. The delays are nextpnr's own
(cell arcs, routing, setup), so the worst slack here is nextpnr's figure
(its log's "Max frequency"); clock skew is not modelled, as nextpnr
does not model it for the iCE40 either."""
import re
import sys
from collections import defaultdict

args = [a for a in sys.argv[1:] if a != '-v']
verbose = '-v' in sys.argv[1:]
period = float(args[1]) * 1000 if len(args) > 1 else 10000.0  # ps

text = open(args[0]).read()
# Edges: (cell, port) -> [(cell, port, delay)], and launch points.
fanin = defaultdict(list)
launch = {}
setup = {}
for m in re.finditer(r'\(INTERCONNECT (\S+)/(\S+) (\S+)/(\S+) \((\d+):', text):
    fanin[(m[3], m[4])].append(((m[1], m[2]), int(m[5])))
for cell in text.split('(CELL\n')[1:]:
    name = re.search(r'\(INSTANCE ([^)]*)\)', cell)[1].strip()
    for m in re.finditer(r'\(IOPATH (\S+) (\S+) \((\d+):', cell):
        src, dst, delay = m[1], m[2], int(m[3])
        if src in ('CLK', 'RCLK', 'WCLK'):
            launch[(name, dst)] = delay
        else:
            fanin[(name, dst)].append(((name, src), delay))
    for m in re.finditer(r'\(SETUPHOLD \(posedge (\S+)\) \(posedge \S+\) \((\d+):', cell):
        setup[(name, m[1])] = int(m[2])

sys.setrecursionlimit(1000000)
memo = {}


def arrival(pin):
    """Latest arrival at `pin` (ps after the clock edge), and the pin it came from."""
    if pin in memo:
        return memo[pin]
    memo[pin] = (0, None)  # a loop (none expected) counts as a start
    if pin in launch:
        best = (launch[pin], None)
    else:
        best = (0, None)
        for src, delay in fanin.get(pin, ()):
            t = arrival(src)[0] + delay
            if t > best[0]:
                best = (t, src)
    memo[pin] = best
    return best


def register(cell):
    """The RustHDL register a cell is named after (yosys's suffixes cut)."""
    return re.split(r'\.q_SB|_SB_|\$|\.mem\.', cell.replace('\\', ''))[0]


def path(pin):
    hops = []
    while pin is not None:
        hops.append(pin)
        pin = arrival(pin)[1]
    return hops[::-1]


worst = {}
failing = defaultdict(int)
for pin, s in setup.items():
    slack = period - s - arrival(pin)[0]
    if slack < 0:
        reg = register(pin[0])
        failing[reg] += 1
        if reg not in worst or slack < worst[reg][0]:
            worst[reg] = (slack, pin)

print(f"{sum(failing.values())} inputs of {len(failing)} registers miss {period / 1000:g} ns")
for reg, (slack, pin) in sorted(worst.items(), key=lambda kv: kv[1][0]):
    hops = path(pin)
    print(f"{slack / 1000:7.2f} ns {failing[reg]:4} in  {reg} ({pin[1]})  from {register(hops[0][0])}")
    if verbose:
        for cell, port in hops:
            print(f"          {arrival((cell, port))[0] / 1000:6.2f}  {cell.replace(chr(92), '')}/{port}")
