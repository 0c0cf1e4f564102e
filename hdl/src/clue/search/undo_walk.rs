//! The search's walks over the board memory and the trail: the undo trail
//! itself (`Trail`), the row the Save steps copy next, and what the Undo
//! steps decide from the latched trail entry.
//!
//! The step machine says which step it is in (`latch`, `pop`, `save_step`,
//! `decide`); this block keeps the registers those steps set. What
//! UndoWrite does is decided in UndoColumn from registers, a cycle ahead:
//! from the trail's port it missed 100 MHz.

use crate::clue::trail::Trail;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct UndoWalk {
    pub clock: Signal<In, Clock>,
    /// A new board (the trail empties); the board's rows.
    pub start: Signal<In, Bit>,
    pub rows: Signal<In, Bits<7>>,
    /// A push of the visit's fixed cell (see `Trail`), with the guess's
    /// value and whether it is the cell's second.
    pub push: Signal<In, Bit>,
    pub line_index: Signal<In, Bits<6>>,
    pub fixed_cell: Signal<In, Bits<6>>,
    pub is_column: Signal<In, Bit>,
    pub guess_value: Signal<In, Bit>,
    pub second: Signal<In, Bit>,
    /// GuessFetch: the next push is the guess itself, unless a probe fixes
    /// its cell for good (`forcing`: pushed as no guess).
    pub guess_fetch: Signal<In, Bit>,
    pub forcing: Signal<In, Bit>,
    /// The trail's read port is in use; latch its top entry; pop it.
    pub reading: Signal<In, Bit>,
    pub latch: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    /// The Save steps: the first row (from Look); SaveWrite.
    pub enter_save: Signal<In, Bit>,
    pub save_step: Signal<In, Bit>,
    /// UndoColumn: decide what UndoWrite does, from the latched entry and
    /// the search's state (giving up, a solution kept, a probe's undo).
    pub decide: Signal<In, Bit>,
    pub giving_up: Signal<In, Bit>,
    pub solution_kept: Signal<In, Bit>,
    pub undo_probe: Signal<In, Bit>,
    /// The trail's top entry's column (the read port); the latched entry;
    /// the trail was empty a cycle ago.
    pub top_column: Signal<Out, Bits<6>>,
    pub row: Signal<Out, Bits<6>>,
    pub column: Signal<Out, Bits<6>>,
    pub was_value: Signal<Out, Bit>,
    pub empty: Signal<Out, Bit>,
    /// The row SaveWrite copies, and whether it is the last.
    pub save_row: Signal<Out, Bits<6>>,
    pub save_last: Signal<Out, Bit>,
    /// UndoWrite's decision: guess the other value; end a probe's undo at
    /// its mark; or, at the trail's bottom, end (gave up, or with the kept
    /// solution).
    pub reguess: Signal<Out, Bit>,
    pub probe_end: Signal<Out, Bit>,
    pub last: Signal<Out, Bit>,
    pub gave_up: Signal<Out, Bit>,
    pub keeps: Signal<Out, Bit>,
    trail: Trail,
    // The next trail push is the guess itself.
    guess_pending: DFF<Bit>,
    save_row_q: DFF<Bits<6>>,
    // Registered compare: `save_row` is the last row.
    save_last_q: DFF<Bit>,
    undo_reguess: DFF<Bit>,
    undo_probe_end: DFF<Bit>,
    undo_last: DFF<Bit>,
    undo_gave_up: DFF<Bit>,
    undo_keeps: DFF<Bit>,
}

impl Logic for UndoWalk {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            guess_pending,
            save_row_q,
            save_last_q,
            undo_reguess,
            undo_probe_end,
            undo_last,
            undo_gave_up,
            undo_keeps
        );
        self.trail.clock.next = self.clock.val();
        // Since the first guess every fixed cell is pushed.
        self.trail.clear.next = self.start.val();
        self.trail.push.next = self.push.val();
        self.trail.pop.next = self.pop.val();
        self.trail.latch.next = self.latch.val();
        self.trail.line_index.next = self.line_index.val();
        self.trail.fixed_cell.next = self.fixed_cell.val();
        self.trail.is_column.next = self.is_column.val();
        self.trail.guess.next = self.guess_pending.q.val();
        self.trail.guess_value.next = self.guess_value.val();
        self.trail.second.next = self.second.val();
        self.trail.reading.next = self.reading.val();
        if self.push.val() {
            self.guess_pending.d.next = false;
        }
        if self.guess_fetch.val() {
            // (A fix for good is pushed as no guess.)
            self.guess_pending.d.next = !self.forcing.val();
        }
        if self.start.val() {
            self.guess_pending.d.next = false;
        }

        if self.enter_save.val() {
            self.save_row_q.d.next = 0.into();
        }
        if self.save_step.val() {
            self.save_row_q.d.next = self.save_row_q.q.val() + 1;
        }
        self.save_last_q.d.next = bit_cast::<7, 6>(self.save_row_q.q.val()) + 1 == self.rows.val();

        if self.decide.val() {
            self.undo_reguess.d.next =
                !self.giving_up.val() & self.trail.was_guess.val() & !self.trail.was_second.val();
            self.undo_last.d.next = self.trail.bottom.val();
            self.undo_gave_up.d.next = self.giving_up.val();
            self.undo_keeps.d.next = self.solution_kept.val() & !self.giving_up.val();
            self.undo_probe_end.d.next = self.undo_probe.val() & self.trail.was_guess.val();
        }

        self.top_column.next = self.trail.top_column.val();
        self.row.next = self.trail.row.val();
        self.column.next = self.trail.column.val();
        self.was_value.next = self.trail.was_value.val();
        self.empty.next = self.trail.empty.val();
        self.save_row.next = self.save_row_q.q.val();
        self.save_last.next = self.save_last_q.q.val();
        self.reguess.next = self.undo_reguess.q.val();
        self.probe_end.next = self.undo_probe_end.q.val();
        self.last.next = self.undo_last.q.val();
        self.gave_up.next = self.undo_gave_up.q.val();
        self.keeps.next = self.undo_keeps.q.val();
    }
}
