//! The DNF engine's board memory: Known and Value twice (`board_copy.rs`),
//! the row copy (word r = row r) and the column copy (word c = column c),
//! and the cell writer (`cell_writer.rs`) that keeps them alike.
//!
//! A visit reads its line from its own copy and writes it back whole; the
//! cells it newly fixed go into the other copy through the cell writer,
//! which runs behind the visits and is done before the next phase reads
//! that copy (the solver waits for `busy` to fall). A new board clears
//! both copies, a word a cycle (32 cycles, while the board is being
//! received). Out of a solve the row copy is read for the reply, a row at
//! a time.
//!
//! Everything here is wiring around those blocks: which copy a line's word,
//! a cleared word or a writer's cell goes into, and which copy the line
//! filter reads, by the phase.

use crate::common::params::MAX_LINE;
use crate::dnf::board_copy::BoardCopy;
use crate::dnf::cell_writer::CellWriter;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct BoardMemory {
    pub clock: Signal<In, Clock>,
    /// Clear both copies, a word a cycle from word 0, and drop the cell
    /// writer's jobs (an abort).
    pub clear: Signal<In, Bit>,
    /// The clear's last cycle: from the next both copies read 0. (It comes
    /// again every 32 cycles after; the solver reads it while clearing.)
    pub clear_last: Signal<Out, Bit>,
    /// The phase: rows (lines are rows, the crossing lines columns) or
    /// columns.
    pub row_phase: Signal<In, Bit>,
    /// Read line `read_address` of the phase's copy; its Known and Value
    /// arrive a cycle later.
    pub read_address: Signal<In, Bits<5>>,
    pub read_used: Signal<In, Bit>,
    pub known: Signal<Out, Bits<MAX_LINE>>,
    pub value: Signal<Out, Bits<MAX_LINE>>,
    /// Read row `read_address` of the row copy, whatever the phase (the
    /// reply's rows, out of a solve).
    pub read_rows: Signal<In, Bit>,
    /// The row copy's word, registered (the reply picks a cell out of it,
    /// and a RAM output before that pick missed 100 MHz).
    pub top_known: Signal<Out, Bits<MAX_LINE>>,
    pub top_value: Signal<Out, Bits<MAX_LINE>>,
    /// Write line `line` of the phase's copy whole: `line_known`,
    /// `line_value`.
    pub line_write: Signal<In, Bit>,
    pub line: Signal<In, Bits<5>>,
    pub line_known: Signal<In, Bits<MAX_LINE>>,
    pub line_value: Signal<In, Bits<MAX_LINE>>,
    /// Set the cells line `line` newly fixed (`line_changed`, never empty)
    /// in the other copy, to `line_value`, through the writer.
    pub cells_write: Signal<In, Bit>,
    pub line_changed: Signal<In, Bits<MAX_LINE>>,
    /// The writer has cells to write (registered: the last is written
    /// before any read of the cycle after it falls).
    pub busy: Signal<Out, Bit>,
    // In this order for the placement (see the solver's blocks).
    column_copy: BoardCopy,
    writer: CellWriter,
    row_copy: BoardCopy,
    clearing: DFF<Bit>,
    clear_address: DFF<Bits<5>>,
    // Registered: a start follows it and loads most of the solver's
    // registers, and an address compare before that fan-out missed 100 MHz.
    clear_last_q: DFF<Bit>,
    top_known_q: DFF<Bits<MAX_LINE>>,
    top_value_q: DFF<Bits<MAX_LINE>>,
}

impl Logic for BoardMemory {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            clearing,
            clear_address,
            clear_last_q,
            top_known_q,
            top_value_q
        );
        self.row_copy.clock.next = self.clock.val();
        self.column_copy.clock.next = self.clock.val();
        self.writer.clock.next = self.clock.val();

        // The clear: its address counts on every cycle, so that a clear's
        // 32 cycles (or power-up's, with nothing to clear) need no enable.
        self.clear_address.d.next = self.clear_address.q.val() + 1;
        self.clear_last_q.d.next = self.clear_address.q.val() == 30;
        if self.clear_last_q.q.val() {
            self.clearing.d.next = false;
        }
        if self.clear.val() {
            self.clearing.d.next = true;
            self.clear_address.d.next = 0.into();
            self.clear_last_q.d.next = false;
        }
        self.clear_last.next = self.clear_last_q.q.val();

        // Reads: the phase's copy, or the row copy for the reply.
        self.row_copy.read_address.next = self.read_address.val();
        self.column_copy.read_address.next = self.read_address.val();
        self.row_copy.read_used.next = self.read_used.val() & self.row_phase.val();
        self.column_copy.read_used.next = self.read_used.val() & !self.row_phase.val();
        if self.read_rows.val() {
            self.row_copy.read_used.next = true;
        }
        self.known.next = self.column_copy.known.val();
        self.value.next = self.column_copy.value.val();
        if self.row_phase.val() {
            self.known.next = self.row_copy.known.val();
            self.value.next = self.row_copy.value.val();
        }
        self.top_known_q.d.next = self.row_copy.known.val();
        self.top_value_q.d.next = self.row_copy.value.val();
        self.top_known.next = self.top_known_q.q.val();
        self.top_value.next = self.top_value_q.q.val();

        // The line's word goes into its own copy, the writer's cells into
        // the other; a clear writes both (the copies register them).
        self.writer.reset.next = self.clear.val();
        self.writer.commit.next = self.cells_write.val();
        self.writer.commit_index.next = self.line.val();
        self.writer.commit_changed.next = self.line_changed.val();
        self.writer.commit_value.next = self.line_value.val();
        self.busy.next = self.writer.busy.val();
        self.row_copy.word_write.next = self.line_write.val() & self.row_phase.val();
        self.column_copy.word_write.next = self.line_write.val() & !self.row_phase.val();
        self.row_copy.word_address.next = self.line.val();
        self.column_copy.word_address.next = self.line.val();
        self.row_copy.word_known.next = self.line_known.val();
        self.column_copy.word_known.next = self.line_known.val();
        self.row_copy.word_value.next = self.line_value.val();
        self.column_copy.word_value.next = self.line_value.val();
        if self.clearing.q.val() {
            self.row_copy.word_write.next = true;
            self.column_copy.word_write.next = true;
            self.row_copy.word_address.next = self.clear_address.q.val();
            self.column_copy.word_address.next = self.clear_address.q.val();
            self.row_copy.word_known.next = 0.into();
            self.column_copy.word_known.next = 0.into();
            self.row_copy.word_value.next = 0.into();
            self.column_copy.word_value.next = 0.into();
        }
        self.row_copy.cell_index.next = self.writer.cell_index.val();
        self.row_copy.even_address.next = self.writer.even_address.val();
        self.row_copy.even_value.next = self.writer.even_value.val();
        self.row_copy.odd_address.next = self.writer.odd_address.val();
        self.row_copy.odd_value.next = self.writer.odd_value.val();
        self.column_copy.cell_index.next = self.writer.cell_index.val();
        self.column_copy.even_address.next = self.writer.even_address.val();
        self.column_copy.even_value.next = self.writer.even_value.val();
        self.column_copy.odd_address.next = self.writer.odd_address.val();
        self.column_copy.odd_value.next = self.writer.odd_value.val();
        self.row_copy.even_write.next = self.writer.even_write.val() & !self.row_phase.val();
        self.row_copy.odd_write.next = self.writer.odd_write.val() & !self.row_phase.val();
        self.column_copy.even_write.next = self.writer.even_write.val() & self.row_phase.val();
        self.column_copy.odd_write.next = self.writer.odd_write.val() & self.row_phase.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_cell_count, yosys_check};

    fn cycle(m: &mut BoardMemory) {
        tick(m, |m| &mut m.clock);
    }

    /// Line `line` of the phase's copy, as the line filter sees it.
    fn read(m: &mut BoardMemory, row_phase: bool, line: usize) -> (u64, u64) {
        m.row_phase.next = row_phase;
        m.read_address.next = (line as u64).into();
        m.read_used.next = true;
        cycle(m);
        m.read_used.next = false;
        (m.known.val().to_u64(), m.value.val().to_u64())
    }

    /// Both copies hold the board (`known[r]`, `value[r]`: row r).
    fn check(m: &mut BoardMemory, known: &[u64; 32], value: &[u64; 32], when: &str) {
        for r in 0..32 {
            assert_eq!(read(m, true, r), (known[r], value[r]), "row {r} {when}");
        }
        for c in 0..32 {
            let column = |board: &[u64; 32]| (0..32).fold(0, |w, r| w | (board[r] >> c & 1) << r);
            assert_eq!(
                read(m, false, c),
                (column(known), column(value)),
                "column {c} {when}"
            );
        }
        // The reply's rows: the row copy whatever the phase, a cycle later.
        m.row_phase.next = false;
        m.read_rows.next = true;
        for r in 0..32 {
            m.read_address.next = (r as u64).into();
            cycle(m);
            cycle(m);
            let top = (m.top_known.val().to_u64(), m.top_value.val().to_u64());
            assert_eq!(top, (known[r], value[r]), "reply's row {r} {when}");
        }
        m.read_rows.next = false;
    }

    /// Phases of visits that fix random cells: each line's word goes into
    /// its own copy and the cells into the other, which matches once the
    /// writer is idle; a clear empties both.
    #[test]
    fn a_line_and_its_crossing_cells_land_in_both_copies() {
        let mut m = BoardMemory::default();
        m.connect_all();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for board in 0..3 {
            m.clear.next = true;
            cycle(&mut m);
            m.clear.next = false;
            let mut last = 0;
            while !m.clear_last.val() {
                cycle(&mut m);
                last += 1;
            }
            assert_eq!(last, 31, "the clear's last cycle");
            cycle(&mut m);
            let (mut known, mut value) = ([0u64; 32], [0u64; 32]);
            check(&mut m, &known, &value, &format!("after clear {board}"));
            for phase in 0..4 {
                let row_phase = phase % 2 == 0;
                m.row_phase.next = row_phase;
                let lines: Vec<usize> = (0..32).filter(|_| rng.below(3) > 0).collect();
                for line in lines {
                    // The line as its copy holds it, a few cells more known.
                    let bit = |w: u64, i: usize| w >> i & 1;
                    let (mut k, mut v) = (0u64, 0u64);
                    for i in 0..32 {
                        let (r, c) = if row_phase { (line, i) } else { (i, line) };
                        k |= bit(known[r], c) << i;
                        v |= bit(value[r], c) << i;
                    }
                    let changed = rng.next_u64() & rng.next_u64() & 0xffff_ffff & !k;
                    v = v & k | rng.next_u64() & changed;
                    k |= changed;
                    for i in 0..32 {
                        let (r, c) = if row_phase { (line, i) } else { (i, line) };
                        known[r] = known[r] & !(1 << c) | bit(k, i) << c;
                        value[r] = value[r] & !(1 << c) | bit(v, i) << c;
                    }
                    m.line_write.next = true;
                    m.cells_write.next = changed != 0;
                    m.line.next = (line as u64).into();
                    m.line_known.next = k.into();
                    m.line_value.next = v.into();
                    m.line_changed.next = changed.into();
                    cycle(&mut m);
                    m.line_write.next = false;
                    m.cells_write.next = false;
                    for _ in 0..rng.below(3) {
                        cycle(&mut m);
                    }
                }
                while m.busy.val() {
                    cycle(&mut m);
                }
                check(
                    &mut m,
                    &known,
                    &value,
                    &format!("after phase {phase} of board {board}"),
                );
            }
        }
    }

    #[test]
    fn maps_to_thirteen_block_rams() {
        let mut m = BoardMemory::default();
        m.connect_all();
        if let Some(log) = yosys_check(&m, "board_memory") {
            // The copies' 8, the cell writer's job memory (64-bit words: 4)
            // and its queue (1).
            assert_eq!(yosys_cell_count(&log, "SB_RAM40_4K"), 13, "{log}");
        }
    }
}
