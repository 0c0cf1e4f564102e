//! Probing's lines (`clue_model::probe` is its model): which lines a round
//! probes, and which cells of the scanned row are still to be probed.
//!
//! * `changed`: the lines a cell was fixed in for good (not under a probe)
//!   since the round began; every line at a new board. A fix is seen as
//!   the crossing writer's `crossing` pulse, which names the visited line
//!   (`line_bit`, of its kind) and the crossing line (`copied_bit`, of the
//!   other kind).
//! * `round_start`: the round's lines are the changed ones, and nothing
//!   has changed since; `forget` (a backtrack): nothing has changed (the
//!   node gone back to had reached a probing fixpoint).
//! * `row_begin`: the scan moved on to the next row (`scan_row` holds it
//!   from this cycle on), every cell a candidate (in the mask taken in the
//!   same cycle too); `row_take`: the cell at `copied_bit` has been probed.
//!   A round begins at row 0.
//!
//! Whether the scanned row is one of the round's is a register, set at a
//! round's start and at each new row from a bit looked up a cycle ahead
//! (the row after `scan_row`): looked up in the cycle the mask is taken,
//! the 64-way multiplexer held the clue bitstream to 87 MHz.
//!
//! `scan_mask` is the scan's mask a cycle later (registered: it lies in
//! front of the 64 `fresh` registers): in a probing scan, the cells of the
//! board's columns not yet probed in a row of the round (every cell), or
//! in the round's columns (else); in any other scan, the board's columns.

use crate::common::line_reg::CellReg;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ProbeLines {
    pub clock: Signal<In, Clock>,
    /// At most 32 rows and columns (see `LineReg`): a constant of the core.
    pub narrow: Signal<In, Bit>,
    pub start: Signal<In, Bit>,
    pub crossing: Signal<In, Bit>,
    pub is_column: Signal<In, Bit>,
    pub line_bit: Signal<In, Bits<64>>,
    pub copied_bit: Signal<In, Bits<64>>,
    /// A probe runs: its fixes change nothing for good.
    pub in_probe: Signal<In, Bit>,
    pub round_start: Signal<In, Bit>,
    pub forget: Signal<In, Bit>,
    pub row_begin: Signal<In, Bit>,
    pub row_take: Signal<In, Bit>,
    /// The scan is probing's (else the first unknown cell's, or a check).
    pub probe_scan: Signal<In, Bit>,
    pub scan_row: Signal<In, Bits<6>>,
    pub column_mask: Signal<In, Bits<64>>,
    pub scan_mask: Signal<Out, Bits<64>>,
    changed_rows: CellReg,
    changed_columns: CellReg,
    round_rows: CellReg,
    round_columns: CellReg,
    row_todo: CellReg,
    scan_mask_q: CellReg,
    row_stale_q: DFF<Bit>,
    next_row_stale: DFF<Bit>,
    row_stale: Signal<Local, Bit>,
    stale_cells: Signal<Local, Bits<64>>,
    todo_now: Signal<Local, Bits<64>>,
}

impl Logic for ProbeLines {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            changed_rows,
            changed_columns,
            round_rows,
            round_columns,
            row_todo,
            scan_mask_q,
            row_stale_q,
            next_row_stale
        );
        self.changed_rows.narrow.next = self.narrow.val();
        self.changed_columns.narrow.next = self.narrow.val();
        self.round_rows.narrow.next = self.narrow.val();
        self.round_columns.narrow.next = self.narrow.val();
        self.row_todo.narrow.next = self.narrow.val();
        self.scan_mask_q.narrow.next = self.narrow.val();
        if self.crossing.val() & !self.in_probe.val() {
            if self.is_column.val() {
                self.changed_columns.d.next = self.changed_columns.q.val() | self.line_bit.val();
                self.changed_rows.d.next = self.changed_rows.q.val() | self.copied_bit.val();
            } else {
                self.changed_rows.d.next = self.changed_rows.q.val() | self.line_bit.val();
                self.changed_columns.d.next = self.changed_columns.q.val() | self.copied_bit.val();
            }
        }
        if self.round_start.val() {
            self.round_rows.d.next = self.changed_rows.q.val();
            self.round_columns.d.next = self.changed_columns.q.val();
        }
        if self.round_start.val() | self.forget.val() {
            self.changed_rows.d.next = 0.into();
            self.changed_columns.d.next = 0.into();
        }
        if self.start.val() {
            self.changed_rows.d.next = !Bits::<64>::from(0u64);
            self.changed_columns.d.next = !Bits::<64>::from(0u64);
        }
        if self.row_take.val() {
            self.row_todo.d.next = self.row_todo.q.val() & !self.copied_bit.val();
        }
        if self.row_begin.val() {
            self.row_todo.d.next = !Bits::<64>::from(0u64);
        }

        self.next_row_stale.d.next = self.round_rows.q.val().get_bit((self.scan_row.val() + 1).index());
        self.row_stale.next = self.row_stale_q.q.val();
        if self.row_begin.val() {
            self.row_stale.next = self.next_row_stale.q.val();
        }
        self.row_stale_q.d.next = self.row_stale.val();
        if self.round_start.val() {
            self.row_stale_q.d.next = self.changed_rows.q.val().get_bit(0);
        }
        self.stale_cells.next = self.round_columns.q.val();
        if self.row_stale.val() {
            self.stale_cells.next = !Bits::<64>::from(0u64);
        }
        // (A new row's cells are all to probe: its `row_begin` acts in the
        // cycle its mask is taken.)
        self.todo_now.next = self.row_todo.q.val();
        if self.row_begin.val() {
            self.todo_now.next = !Bits::<64>::from(0u64);
        }
        self.scan_mask_q.d.next = self.column_mask.val();
        if self.probe_scan.val() {
            self.scan_mask_q.d.next = self.column_mask.val() & self.stale_cells.val() & self.todo_now.val();
        }
        self.scan_mask.next = self.scan_mask_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// Random pulses every cycle against the same bookkeeping in plain
    /// Rust: the mask registered at each edge is what the words held.
    #[test]
    fn the_mask_follows_the_changed_lines() {
        let mut uut = ProbeLines::default();
        uut.connect_all();
        let mut rng = Rng(0x1f83_d9ab_fb41_bd6b);
        let (mut changed, mut round, mut todo) = ([u64::MAX; 2], [0u64; 2], 0u64);
        // The scanned row, and whether it is one of the round's.
        let (mut row, mut row_stale, mut last_pulse) = (0u64, false, 0);
        uut.start.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.start.next = false;
        for cycle in 0..6000 {
            let (line, copied, columns) = (1u64 << rng.below(64), 1u64 << rng.below(64), rng.next_u64());
            let is_column = rng.below(2) == 1;
            let (in_probe, probe_scan) = (rng.below(3) == 0, rng.below(2) == 1);
            let mut pulse = rng.below(8);
            if pulse == 5 && last_pulse == 3 {
                // (A new row never follows a round's start at once: the
                // row after row 0 is looked up in row 0's first cycle.)
                pulse = 7;
            }
            last_pulse = pulse;
            if pulse == 5 {
                row = (row + 1) % 64;
                row_stale = round[0] >> row & 1 == 1;
            }
            uut.crossing.next = pulse < 3;
            uut.is_column.next = is_column;
            uut.line_bit.next = line.into();
            uut.copied_bit.next = copied.into();
            uut.in_probe.next = in_probe;
            uut.round_start.next = pulse == 3;
            uut.forget.next = pulse == 4;
            uut.row_begin.next = pulse == 5;
            uut.row_take.next = pulse == 6;
            uut.probe_scan.next = probe_scan;
            uut.scan_row.next = row.into();
            uut.column_mask.next = columns.into();
            // The mask this cycle computes, from the registers before.
            let stale = if row_stale { u64::MAX } else { round[1] };
            let todo_now = if pulse == 5 { u64::MAX } else { todo };
            let mask = if probe_scan {
                columns & stale & todo_now
            } else {
                columns
            };
            tick(&mut uut, |u| &mut u.clock);
            assert_eq!(uut.scan_mask.val().to_u64(), mask, "cycle {cycle}");
            match pulse {
                0..=2 if !in_probe => {
                    let (own, other) = if is_column { (1, 0) } else { (0, 1) };
                    changed[own] |= line;
                    changed[other] |= copied;
                }
                3 => {
                    round = changed;
                    changed = [0; 2];
                    (row, row_stale) = (0, round[0] & 1 == 1);
                }
                4 => changed = [0; 2],
                5 => todo = u64::MAX,
                6 => todo &= !copied,
                _ => {}
            }
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = ProbeLines::default();
        uut.connect_all();
        yosys_check(&uut, "probe_lines");
    }
}
