"""A yosys JSON netlist (`top.json` in a `nonogram-bsp build` folder), as
the tools in this folder read it: the top module's cells, a name for each
net bit, and the cell that drives each bit."""
import json


def top_module(path):
    """The module yosys marked top (else the first)."""
    modules = list(json.load(open(path))['modules'].values())
    return next((m for m in modules if m['attributes'].get('top')), modules[0])


def bit_names(top, public=False):
    """Each net bit's shortest name (with `public`, only names yosys did
    not make up, those without a leading `$`)."""
    names = {}
    for name, v in top['netnames'].items():
        if public and name.startswith('$'):
            continue
        for b in v['bits']:
            if isinstance(b, int) and (b not in names or len(name) < len(names[b])):
                names[b] = name
    return names


def drivers(cells):
    """bit -> the name of the cell whose output drives it."""
    driver = {}
    for cn, c in cells.items():
        for port, direction in c['port_directions'].items():
            if direction == 'output':
                for b in c['connections'][port]:
                    if isinstance(b, int):
                        driver[b] = cn
    return driver
