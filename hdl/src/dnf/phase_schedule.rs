//! The DNF solver's phase schedule: which lines are dirty, and which line
//! is visited next.
//!
//! The solver visits the lines in phases, the dirty rows in order, then the
//! dirty columns, and so on (see `solver.rs`). Here are the dirty lines of
//! each kind, the lines left to visit in this phase (`todo`) and the one
//! picked to be fetched next, one-hot and registered, so that the line's
//! index is a few ORs of a register. The solver decides when a phase ends
//! and whether another follows (`next_any` says whether one can);
//! `advance` then moves the next phase's dirty lines into `todo` and picks
//! the lowest, all in that one cycle, and the dirty lines of that kind
//! start afresh in the cycle after (`began`).

use crate::common::lowest_bit::LowestBit;
use crate::common::params::MAX_LINE;
use crate::dnf::cell_writer::index_bits;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PhaseSchedule {
    pub clock: Signal<In, Clock>,
    /// A new board (`start_rows` has bit r set for every row r,
    /// `start_columns` bit c for every column c): every column is dirty,
    /// and the rows' phase begins, row 0 already fetched by the solver, row
    /// 1 picked and the rows after it to do.
    pub start: Signal<In, Bit>,
    pub start_rows: Signal<In, Bits<MAX_LINE>>,
    pub start_columns: Signal<In, Bits<MAX_LINE>>,
    /// The phase: rows (its lines are rows) or columns.
    pub row_phase: Signal<In, Bit>,
    /// The picked line is fetched in this cycle: pick the next.
    pub fetch: Signal<In, Bit>,
    /// A visit's verdict (stage U). With no option left (`empty`) the
    /// phase's other lines are dropped; otherwise the crossing lines of the
    /// cells it newly fixed (`changed`; `changed_any` if there are any)
    /// are dirty.
    pub visited: Signal<In, Bit>,
    pub empty: Signal<In, Bit>,
    pub changed: Signal<In, Bits<MAX_LINE>>,
    pub changed_any: Signal<In, Bit>,
    /// The phase is over and another follows: its lines are to do.
    pub advance: Signal<In, Bit>,
    /// Drop the picked line (the lines to do are dropped a cycle later, as
    /// the solver forces a verdict with no option left).
    pub abort: Signal<In, Bit>,
    /// The line to fetch next, if any.
    pub picked: Signal<Out, Bit>,
    pub pick_index: Signal<Out, Bits<5>>,
    /// The other kind has a dirty line: another phase would follow.
    pub next_any: Signal<Out, Bit>,
    /// The first cycle of a phase.
    pub began: Signal<Out, Bit>,
    todo_lowest: LowestBit,
    next_lowest: LowestBit,
    dirty_rows: DFF<Bits<MAX_LINE>>,
    dirty_columns: DFF<Bits<MAX_LINE>>,
    // Whether each is not empty (registered: an OR of 32 bits in the cycle
    // that decides held the DNF bitstream to 83 MHz).
    rows_dirty: DFF<Bit>,
    columns_dirty: DFF<Bit>,
    todo: DFF<Bits<MAX_LINE>>,
    picked_q: DFF<Bit>,
    pick: DFF<Bits<MAX_LINE>>,
    began_q: DFF<Bit>,
    // The next phase's dirty lines.
    next_dirty: Signal<Local, Bits<MAX_LINE>>,
    /// Bit k of an index is set for the one-hot bits in `index_bit[k]`.
    index_bit: [Constant<Bits<MAX_LINE>>; 5],
}

impl Default for PhaseSchedule {
    fn default() -> Self {
        PhaseSchedule {
            clock: Default::default(),
            start: Default::default(),
            start_rows: Default::default(),
            start_columns: Default::default(),
            row_phase: Default::default(),
            fetch: Default::default(),
            visited: Default::default(),
            empty: Default::default(),
            changed: Default::default(),
            changed_any: Default::default(),
            advance: Default::default(),
            abort: Default::default(),
            picked: Default::default(),
            pick_index: Default::default(),
            next_any: Default::default(),
            began: Default::default(),
            todo_lowest: Default::default(),
            next_lowest: Default::default(),
            dirty_rows: Default::default(),
            dirty_columns: Default::default(),
            rows_dirty: Default::default(),
            columns_dirty: Default::default(),
            todo: Default::default(),
            picked_q: Default::default(),
            pick: Default::default(),
            began_q: Default::default(),
            next_dirty: Default::default(),
            index_bit: index_bits(),
        }
    }
}

impl Logic for PhaseSchedule {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            dirty_rows,
            dirty_columns,
            rows_dirty,
            columns_dirty,
            todo,
            picked_q,
            pick,
            began_q
        );
        self.picked.next = self.picked_q.q.val();
        self.pick_index.next = 0.into();
        for k in 0..5 {
            self.pick_index.next = self
                .pick_index
                .val()
                .replace_bit(k, (self.pick.q.val() & self.index_bit[k].val()) != 0);
        }
        self.began.next = self.began_q.q.val();

        // Pick the lowest line left as the picked one is fetched.
        self.todo_lowest.word.next = self.todo.q.val();
        if !self.picked_q.q.val() | self.fetch.val() {
            self.pick.d.next = self.todo_lowest.lowest.val();
            self.picked_q.d.next = self.todo.q.val() != 0;
            self.todo.d.next = self.todo.q.val() & !self.todo_lowest.lowest.val();
        }

        // A visit's verdict.
        if self.visited.val() {
            if self.empty.val() {
                self.picked_q.d.next = false;
                self.todo.d.next = 0.into();
            } else if self.row_phase.val() {
                self.dirty_columns.d.next = self.dirty_columns.q.val() | self.changed.val();
                self.columns_dirty.d.next = self.columns_dirty.q.val() | self.changed_any.val();
            } else {
                self.dirty_rows.d.next = self.dirty_rows.q.val() | self.changed.val();
                self.rows_dirty.d.next = self.rows_dirty.q.val() | self.changed_any.val();
            }
        }

        // The phase that began has its lines in `todo`; its kind's dirt
        // starts afresh.
        self.began_q.d.next = false;
        if self.began_q.q.val() {
            if self.row_phase.val() {
                self.dirty_rows.d.next = 0.into();
                self.rows_dirty.d.next = false;
            } else {
                self.dirty_columns.d.next = 0.into();
                self.columns_dirty.d.next = false;
            }
        }

        // The next phase: the other kind's dirty lines.
        self.next_dirty.next = self.dirty_rows.q.val();
        self.next_any.next = self.rows_dirty.q.val();
        if self.row_phase.val() {
            self.next_dirty.next = self.dirty_columns.q.val();
            self.next_any.next = self.columns_dirty.q.val();
        }
        self.next_lowest.word.next = self.next_dirty.val();
        if self.advance.val() {
            self.pick.d.next = self.next_lowest.lowest.val();
            self.picked_q.d.next = true;
            self.todo.d.next = self.next_dirty.val() & !self.next_lowest.lowest.val();
            self.began_q.d.next = true;
        }

        if self.start.val() {
            self.dirty_rows.d.next = 0.into();
            self.dirty_columns.d.next = self.start_columns.val();
            self.rows_dirty.d.next = false;
            self.columns_dirty.d.next = true;
            self.pick.d.next = bit_cast::<MAX_LINE, 1>(self.start_rows.val().get_bit(1).into()) << 1;
            self.picked_q.d.next = self.start_rows.val().get_bit(1);
            self.todo.d.next = (self.start_rows.val() >> 2) << 2;
        }
        if self.abort.val() {
            self.picked_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    fn cycle(s: &mut PhaseSchedule) {
        tick(s, |s| &mut s.clock);
    }

    fn lines(k: usize) -> u64 {
        (1u64 << k) - 1
    }

    /// Random boards, each a run of phases with fetches and visits at
    /// random: a phase picks its kind's dirty lines in order (the first,
    /// the rows after row 0), and its visits dirty the other kind's. A
    /// visit with no option left drops the rest.
    #[test]
    fn picks_each_phase_dirty_lines_in_order() {
        let mut s = PhaseSchedule::default();
        s.connect_all();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut dropped, mut phases) = (0, 0);
        'board: for board in 0..40 {
            let (m, n) = (1 + rng.below(32) as usize, 1 + rng.below(32) as usize);
            s.start.next = true;
            s.start_rows.next = lines(m).into();
            s.start_columns.next = lines(n).into();
            s.row_phase.next = true;
            cycle(&mut s);
            s.start.next = false;
            // Dirty rows, dirty columns.
            let mut dirty = [0u64, lines(n)];
            let mut expected: Vec<u64> = (1..m as u64).collect();
            let mut row_phase = true;
            for phase in 0..8 {
                let (other, crossing) = if row_phase { (1, n) } else { (0, m) };
                let mut picks = vec![];
                while s.picked.val() {
                    if rng.below(500) == 0 {
                        s.visited.next = true;
                        s.empty.next = true;
                        cycle(&mut s);
                        s.visited.next = false;
                        s.empty.next = false;
                        assert!(!s.picked.val(), "a line picked after a contradiction");
                        cycle(&mut s);
                        assert!(!s.picked.val(), "a line picked after a contradiction");
                        dropped += 1;
                        continue 'board;
                    }
                    let fetch = rng.below(3) > 0;
                    if fetch {
                        picks.push(s.pick_index.val().to_u64());
                    }
                    let visited = rng.below(2) == 0;
                    let changed = rng.next_u64() & rng.next_u64() & lines(crossing);
                    if visited {
                        dirty[other] |= changed;
                    }
                    s.fetch.next = fetch;
                    s.visited.next = visited;
                    s.changed.next = changed.into();
                    s.changed_any.next = changed != 0;
                    cycle(&mut s);
                    s.fetch.next = false;
                    s.visited.next = false;
                }
                assert_eq!(picks, expected, "board {board} ({m}x{n}), phase {phase}");
                assert_eq!(
                    s.next_any.val(),
                    dirty[other] != 0,
                    "board {board}, phase {phase}"
                );
                if dirty[other] == 0 {
                    continue 'board;
                }
                s.advance.next = true;
                cycle(&mut s);
                s.advance.next = false;
                row_phase = !row_phase;
                s.row_phase.next = row_phase;
                assert!(s.began.val(), "a phase began");
                expected = (0..32).filter(|i| dirty[other] >> i & 1 == 1).collect();
                dirty[other] = 0;
                phases += 1;
            }
        }
        assert!(
            dropped > 0 && phases > 100,
            "{dropped} contradictions, {phases} phases after the first"
        );
    }

    #[test]
    fn verilog_synthesises() {
        let mut s = PhaseSchedule::default();
        s.connect_all();
        yosys_check(&s, "phase_schedule");
    }
}
