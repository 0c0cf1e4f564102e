#!/usr/bin/env bash
# Full synthesis of the Alchitry Cu flash image, for CI and for people:
# for each engine, Verilog from RustHDL, yosys, nextpnr-ice40 at 100 MHz,
# icepack; then icemulti packs every image into build/flash.bin.
# Exits non-zero, with the failing tool's own message, when a step fails or
# the design misses 100 MHz. Extra arguments go to `nonogram-bsp build`
# (e.g. --baud 115200, --seed 7, --out DIR, --seeds 5 --seed-record
# bsp/seeds.json; the default output is build/).
# NONOGRAM_FIFO_ADDR_BITS, if set, sizes the option FIFO (compile time).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for tool in yosys nextpnr-ice40 icepack icemulti; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
    echo "ci-synth: not found on PATH: ${missing[*]}" >&2
    echo "ci-synth: install them with: apt-get install yosys nextpnr-ice40 fpga-icestorm" >&2
    exit 1
fi
exec cargo run --release -p nonogram-bsp -- build "$@"
