#!/usr/bin/env python3
"""Logic depth of every register and block-RAM input in a synthesised
iCE40 netlist (yosys's JSON, `top.json` in a `nonogram-bsp build` folder),
without placing it: a LUT is one level, a carry hop a quarter. Prints the
registers whose inputs are MIN levels deep or more (default 7), deepest
first; with -v, the nets of each one's deepest path.

    python3 bsp/tools/logic_depth.py build/colour/top.json 7.5 -v

nextpnr names one critical path a run (8 minutes for a full HX8K); this
lists every deep one in a second. The images that meet 100 MHz at every
seed have nothing deeper than 8.5 (the 32-bit counters' carry chains) or
8 LUT levels; see docs/timing.md."""
import sys, collections, re
from netlist import top_module, bit_names, drivers
MIN = float(sys.argv[2]) if len(sys.argv) > 2 else 7
top = top_module(sys.argv[1])
cells = top['cells']
names = bit_names(top)
driver = drivers(cells)
memo = {}
sys.setrecursionlimit(100000)
def depth(bit):
    if not isinstance(bit, int): return (0, None)
    if bit in memo: return memo[bit]
    cn = driver.get(bit)
    if cn is None: memo[bit] = (0, None); return memo[bit]
    c = cells[cn]; t = c['type']
    if t == 'SB_LUT4':
        ins = [c['connections'][p][0] for p in ('I0','I1','I2','I3')]
        best = max((depth(b) + (b,) for b in ins), key=lambda x: x[0])
        r = (best[0] + 1, best[2])
    elif t == 'SB_CARRY':
        ins = [c['connections'][p][0] for p in ('I0','I1','CI')]
        best = max((depth(b) + (b,) for b in ins), key=lambda x: x[0])
        r = (best[0] + 0.25, best[2])
    else:
        r = (0, None)
    memo[bit] = r
    return r
def path(bit):
    out = []
    while isinstance(bit, int) and bit in memo and memo[bit][1] is not None:
        out.append(names.get(bit, str(bit)))
        bit = memo[bit][1]
    out.append(names.get(bit, str(bit)))
    return out[::-1]
ends = []
for cn, c in cells.items():
    t = c['type']
    if t.startswith('SB_DFF') or t.startswith('SB_RAM'):
        for p, d in c['port_directions'].items():
            if d == 'input' and p not in ('C', 'RCLK', 'WCLK', 'CLK'):
                for b in c['connections'][p]:
                    dd = depth(b)[0]
                    if dd >= MIN:
                        ends.append((dd, cn, p, b))
groups = collections.defaultdict(list)
for dd, cn, p, b in ends:
    key = re.sub(r'(_SB_|\$).*', '', cn)
    key = re.sub(r'\.q$|\[\d+\]$', '', key)
    groups[key].append((dd, p, b))
for key, v in sorted(groups.items(), key=lambda kv: -max(x[0] for x in kv[1])):
    worst = max(v, key=lambda x: x[0])
    print(f"{worst[0]:5.2f} {len(v):4d} ends  {key} ({worst[1]})")
    if '-v' in sys.argv:
        for n in path(worst[2]): print("         ", n[:150])
