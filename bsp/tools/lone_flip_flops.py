#!/usr/bin/env python3
"""Flip-flops that will take an iCE40 logic cell of their own, by register,
from a synthesised netlist (yosys's JSON, `top.json` in a `nonogram-bsp
build` folder), without placing it.

nextpnr packs a flip-flop into the logic cell of the LUT4 whose output
drives its D input and nothing else; any other flip-flop (D from another
flip-flop, a block RAM, an input, or a LUT4 shared with other loads) fills
a cell alone. Logic cells, not LUT4s, are what fill the chip, so a change
that saves LUT4s by sharing one D among many flip-flops can cost cells.

    python3 bsp/tools/lone_flip_flops.py build/colour/top.json [N]

prints the total and the N (default 30) registers with the most."""
import collections
import sys

from netlist import bit_names, drivers, top_module

top = top_module(sys.argv[1])
shown = int(sys.argv[2]) if len(sys.argv) > 2 else 30
cells = top['cells']
names = bit_names(top, public=True)
driver = drivers(cells)
loads = collections.Counter()
for c in cells.values():
    for port, direction in c['port_directions'].items():
        if direction != 'output':
            for b in c['connections'][port]:
                if isinstance(b, int):
                    loads[b] += 1
alone = collections.Counter()
flip_flops = 0
for cn, c in cells.items():
    if not c['type'].startswith('SB_DFF'):
        continue
    flip_flops += 1
    d = c['connections']['D'][0]
    by = driver.get(d)
    if by is None or cells[by]['type'] != 'SB_LUT4' or loads[d] != 1:
        q = c['connections']['Q'][0]
        alone['.'.join(names.get(q, '?').split('.')[:4])] += 1
print(f"{sum(alone.values())} of {flip_flops} flip-flops take a logic cell alone")
for register, n in alone.most_common(shown):
    print(f"{n:6d}  {register}")
