//! The DNF solver's verdict and counts: whether a line lost all its
//! options (and which), the rows found full, and, when the solve ends, the
//! outcome (contradiction, solved or stalled) with the cycles and passes
//! it took.
//!
//! A row is full when a visit knows all its cells; the board is solved
//! when every row is (a row's cells, once known, stay known). Lines are
//! numbered for the reply as the loader numbers them: rows 0..m, then
//! columns m..m+n.

use crate::common::params::{CYCLE_BITS, DIM_BITS, LINE_ID_BITS, MAX_LINE};
use crate::constant;
use crate::link::protocol::status::outcome;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Verdict {
    pub clock: Signal<In, Clock>,
    /// A new board of `rows` rows: no contradiction, no row full, cycles
    /// from 0 and passes from 1 (the first rows' phase).
    pub start: Signal<In, Bit>,
    pub rows: Signal<In, Bits<DIM_BITS>>,
    /// No verdict comes out (an abort).
    pub abort: Signal<In, Bit>,
    /// The phase: rows or columns.
    pub row_phase: Signal<In, Bit>,
    /// A visit's verdict (stage U) on line `line` of the phase: no option
    /// left (`empty`), or every cell known (`full`).
    pub visited: Signal<In, Bit>,
    pub empty: Signal<In, Bit>,
    pub full: Signal<In, Bit>,
    pub line: Signal<In, Bits<5>>,
    /// A phase began: a rows' phase is a pass.
    pub began: Signal<In, Bit>,
    /// The solve is running or finishing: a cycle counts.
    pub counting: Signal<In, Bit>,
    /// The solve ends: the outcome, solved if every row of `column_cells`
    /// (bit r for r < rows) is full; `done` next cycle.
    pub finish: Signal<In, Bit>,
    pub column_cells: Signal<In, Bits<MAX_LINE>>,
    /// A line lost all its options (registered).
    pub contradiction: Signal<Out, Bit>,
    /// Pulse: the outcome is in.
    pub done: Signal<Out, Bit>,
    pub outcome: Signal<Out, Bits<3>>,
    pub contradiction_line: Signal<Out, Bits<LINE_ID_BITS>>,
    pub cycles: Signal<Out, Bits<CYCLE_BITS>>,
    pub passes: Signal<Out, Bits<8>>,
    rows_q: DFF<Bits<LINE_ID_BITS>>,
    full_rows: DFF<Bits<MAX_LINE>>,
    contradiction_q: DFF<Bit>,
    contradiction_line_q: DFF<Bits<LINE_ID_BITS>>,
    outcome_q: DFF<Bits<3>>,
    cycles_q: DFF<Bits<CYCLE_BITS>>,
    passes_q: DFF<Bits<8>>,
    done_q: DFF<Bit>,
    solved: Constant<Bits<3>>,
    contradicted: Constant<Bits<3>>,
    stalled: Constant<Bits<3>>,
}

impl Default for Verdict {
    fn default() -> Self {
        Verdict {
            clock: Default::default(),
            start: Default::default(),
            rows: Default::default(),
            abort: Default::default(),
            row_phase: Default::default(),
            visited: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            line: Default::default(),
            began: Default::default(),
            counting: Default::default(),
            finish: Default::default(),
            column_cells: Default::default(),
            contradiction: Default::default(),
            done: Default::default(),
            outcome: Default::default(),
            contradiction_line: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            rows_q: Default::default(),
            full_rows: Default::default(),
            contradiction_q: Default::default(),
            contradiction_line_q: Default::default(),
            outcome_q: Default::default(),
            cycles_q: Default::default(),
            passes_q: Default::default(),
            done_q: Default::default(),
            solved: constant(outcome::SOLVED),
            contradicted: constant(outcome::CONTRADICTION),
            stalled: constant(outcome::STALLED),
        }
    }
}

impl Logic for Verdict {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            rows_q,
            full_rows,
            contradiction_q,
            contradiction_line_q,
            outcome_q,
            cycles_q,
            passes_q,
            done_q
        );
        // A visit's verdict: the line with no option left (a column's number
        // follows the rows'), or a full row.
        if self.visited.val() {
            if self.empty.val() {
                self.contradiction_q.d.next = true;
                self.contradiction_line_q.d.next = bit_cast::<LINE_ID_BITS, 5>(self.line.val());
                if !self.row_phase.val() {
                    self.contradiction_line_q.d.next =
                        bit_cast::<LINE_ID_BITS, 5>(self.line.val()) + self.rows_q.q.val();
                }
            } else if self.row_phase.val() & self.full.val() {
                self.full_rows.d.next =
                    self.full_rows.q.val() | (Bits::<MAX_LINE>::from(1u64) << self.line.val());
            }
        }
        self.contradiction.next = self.contradiction_q.q.val();
        self.done.next = self.done_q.q.val();
        self.done_q.d.next = false;
        self.outcome.next = self.outcome_q.q.val();
        self.contradiction_line.next = self.contradiction_line_q.q.val();
        self.cycles.next = self.cycles_q.q.val();
        self.passes.next = self.passes_q.q.val();
        if self.counting.val() {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
        }
        if self.began.val() & self.row_phase.val() & (self.passes_q.q.val() != 255) {
            self.passes_q.d.next = self.passes_q.q.val() + 1;
        }
        if self.finish.val() {
            self.outcome_q.d.next = self.stalled.val();
            if (self.full_rows.q.val() & self.column_cells.val()) == self.column_cells.val() {
                self.outcome_q.d.next = self.solved.val();
            }
            if self.contradiction_q.q.val() {
                self.outcome_q.d.next = self.contradicted.val();
            }
            self.done_q.d.next = true;
        }
        if self.start.val() {
            self.rows_q.d.next = bit_cast::<LINE_ID_BITS, DIM_BITS>(self.rows.val());
            self.full_rows.d.next = 0.into();
            self.contradiction_q.d.next = false;
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 1.into();
        }
        if self.abort.val() {
            self.done_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_check};

    fn cycle(v: &mut Verdict) {
        tick(v, |v| &mut v.clock);
    }

    /// What a solve of `rows` rows said, when rows `full` (bits) were
    /// found full, `phases` phases followed the first, and the line of
    /// `contradiction` (in the row phase?, index) lost its options.
    fn solve(
        v: &mut Verdict,
        rows: u64,
        full: u64,
        phases: usize,
        contradiction: Option<(bool, u64)>,
    ) -> [u64; 4] {
        v.start.next = true;
        v.rows.next = rows.into();
        cycle(v);
        v.start.next = false;
        v.counting.next = true;
        let mut cycles = 0;
        let mut passes = 1u64;
        for phase in 0..phases {
            // Phases begin with the columns'.
            let row_phase = phase % 2 == 1;
            v.row_phase.next = row_phase;
            v.began.next = true;
            cycle(v);
            v.began.next = false;
            cycles += 1;
            passes = (passes + row_phase as u64).min(255);
        }
        v.row_phase.next = true;
        v.visited.next = true;
        for line in (0..32).filter(|r| full >> r & 1 == 1) {
            v.full.next = true;
            v.line.next = line.into();
            cycle(v);
            cycles += 1;
        }
        v.full.next = false;
        if let Some((row_phase, line)) = contradiction {
            v.row_phase.next = row_phase;
            v.empty.next = true;
            v.line.next = line.into();
            cycle(v);
            cycles += 1;
        }
        v.visited.next = false;
        v.empty.next = false;
        assert!(!v.done.val(), "a verdict before the end");
        v.finish.next = true;
        v.column_cells.next = ((1u64 << rows) - 1).into();
        cycle(v);
        cycles += 1;
        v.finish.next = false;
        v.counting.next = false;
        assert!(v.done.val(), "no verdict");
        assert_eq!(v.cycles.val().to_u64(), cycles, "cycles");
        assert_eq!(v.passes.val().to_u64(), passes, "passes");
        cycle(v);
        assert!(!v.done.val(), "the verdict is a pulse");
        let line = v.contradiction_line.val().to_u64();
        [
            v.outcome.val().to_u64(),
            line,
            v.contradiction.val() as u64,
            v.passes.val().to_u64(),
        ]
    }

    #[test]
    fn says_solved_stalled_or_which_line_contradicts() {
        let mut v = Verdict::default();
        v.connect_all();
        let [solved, stalled, contradicted] =
            [outcome::SOLVED, outcome::STALLED, outcome::CONTRADICTION].map(u64::from);
        assert_eq!(solve(&mut v, 5, 0b11111, 3, None)[..1], [solved]);
        assert_eq!(solve(&mut v, 32, u32::MAX as u64, 0, None)[..1], [solved]);
        assert_eq!(solve(&mut v, 5, 0b10111, 4, None)[..1], [stalled]);
        // A column's line number follows the rows'.
        assert_eq!(
            solve(&mut v, 5, 0b11111, 1, Some((false, 3)))[..3],
            [contradicted, 8, 1]
        );
        assert_eq!(solve(&mut v, 7, 0, 2, Some((true, 6)))[..3], [contradicted, 6, 1]);
        // A new board forgets the contradiction; passes stop at 255.
        assert_eq!(solve(&mut v, 2, 0b11, 600, None), [solved, 6, 0, 255]);
        // An abort with the finish: no verdict comes out.
        v.finish.next = true;
        v.abort.next = true;
        cycle(&mut v);
        v.finish.next = false;
        v.abort.next = false;
        assert!(!v.done.val(), "a verdict after an abort");
    }

    #[test]
    fn verilog_synthesises() {
        let mut v = Verdict::default();
        v.connect_all();
        yosys_check(&v, "verdict");
    }
}
