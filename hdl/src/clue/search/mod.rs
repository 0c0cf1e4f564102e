//! The clue engine's depth-first search (`clue_model::search` is its
//! model): the steps the solver takes under its `Search` state, and the
//! undo trail.
//!
//! The solver hands over at a stall (`enter_check`), at a contradiction
//! while searching (`enter_check` with `backtrack`), and when a search
//! fills the board (`enter_save`). The search answers with what the
//! solver's registers and the board memory do in the cycle: a guess is
//! handed back as a visit of its row (`guess_set`), and the end as
//! `finish`.
//!
//! * **Check**: give up (budget, or more unknown cells than the trail
//!   holds), go back (a contradiction or a kept solution), or choose.
//! * **Scan**: the first unknown cell. A row's Known word is read, its
//!   unknown cells go into the solver's `fresh`, and the lowest is found
//!   in two steps (the fresh finder). Filled is tried first: on random
//!   puzzles either order decides as many (`search_plan`), and filled cells
//!   fix more.
//! * **Guess**: the guessed row is read, the cell set in its words, and
//!   the visit's write-back copies it into the column and pushes it.
//! * **Save**: the first solution, a row a step, into the solution memory.
//! * **Undo**: pop one trail entry and clear its Known bit in the row copy,
//!   then in the column copy; at the latest guess with a value left, guess
//!   that value.
//!
//! With `probe` (`clue_model::probe` is the model), a stall starts a node's
//! rounds of probes instead (the RoundStart, ProbeDone and RoundNext steps;
//! `rounds.rs` tells them).
//!
//! The steps are this block's; its parts keep what the steps set:
//! * [`SearchCounts`](counts): the budget, the nodes and the backtracks;
//! * [`UndoWalk`](undo_walk): the undo trail, the row a save copies, and
//!   what an undo does next;
//! * [`ProbeRounds`](rounds): probing's rounds, with `ProbeLines` and
//!   `ProbeScore`.
//!
//! Every decision is taken from registers (`undo_*`, the compares, the
//! trail's latched entry), and every wide enable goes out on a registered
//! pulse: decoded from the step, these missed 100 MHz on the clue
//! bitstream. The steps are an enum of their own, under one solver state,
//! so that the visit's states stay few and quick to decode (in one enum
//! the clue bitstream reached 87 MHz). The probing steps fit the step
//! register's four bits.

pub mod counts;
mod rounds;
mod undo_walk;

use crate::common::params::CYCLE_BITS;
use counts::SearchCounts;
use rounds::ProbeRounds;
use rust_hdl::prelude::*;
use undo_walk::UndoWalk;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Step {
    Check,
    ScanRead,
    ScanCheck,
    ScanWait,
    ScanPick,
    GuessFetch,
    GuessLoad,
    GuessSet,
    SaveRead,
    SaveWrite,
    UndoRow,
    UndoColumn,
    UndoWrite,
    RoundStart,
    ProbeDone,
    RoundNext,
}

#[derive(LogicBlock, Default)]
pub struct Search {
    pub clock: Signal<In, Clock>,
    /// At most 32 rows and columns (see `LineReg`): a constant of the core.
    pub narrow: Signal<In, Bit>,
    /// A new board, with its budget in units of 2^20 cycles (0: no search),
    /// and whether to probe before every branch.
    pub start: Signal<In, Bit>,
    pub budget: Signal<In, Bits<12>>,
    pub probe: Signal<In, Bit>,
    pub abort: Signal<In, Bit>,
    /// The solver is in its Search state.
    pub active: Signal<In, Bit>,
    /// From a visit state, into Check; with `backtrack`, to go back.
    pub enter_check: Signal<In, Bit>,
    pub backtrack: Signal<In, Bit>,
    /// From Look: the board is full; keep it, then go back.
    pub enter_save: Signal<In, Bit>,
    /// The solver's state the steps read: the unknown cells fit the trail;
    /// the cycle count; the rows; `fresh` has a bit; its lowest cell; the
    /// copied cell and the visited line (for a push); a push.
    pub trail_fits: Signal<In, Bit>,
    pub cycles: Signal<In, Bits<CYCLE_BITS>>,
    pub rows: Signal<In, Bits<7>>,
    pub fresh_any: Signal<In, Bit>,
    pub lowest_cell: Signal<In, Bits<6>>,
    pub copied_cell: Signal<In, Bits<6>>,
    pub line_index: Signal<In, Bits<6>>,
    pub is_column: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    /// The solver's: a guess (or a probe) has been made.
    pub searching: Signal<In, Bit>,
    /// For probing: the crossing writer's pulse, the visited line's bit and
    /// the copied cell's; the board's columns; the board memory's read port.
    pub crossing: Signal<In, Bit>,
    pub line_bit: Signal<In, Bits<64>>,
    pub copied_bit: Signal<In, Bits<64>>,
    pub column_mask: Signal<In, Bits<64>>,
    pub read_data: Signal<In, Bits<64>>,
    /// The scan's mask (see `ProbeLines`).
    pub scan_mask: Signal<Out, Bits<64>>,
    /// A probe runs; a branch was made or a probe runs (the verdict's
    /// "guessed": a full board is then not line logic's alone).
    pub in_probe: Signal<Out, Bit>,
    pub guessed: Signal<Out, Bit>,
    /// What this cycle does to the solver: load `bit_number`; load the
    /// guessed column into `copied_cell`; load the visited line's Known
    /// word from the read port (a guess); the guess's row is being read
    /// (`guess_fetch`); return to the visit at WriteKnown (`guess_set`);
    /// end the solve (`finish`: gave up, or with the kept solution). These
    /// are written twice in a pass (a default, then the step's value) only
    /// while `active`, when the solver writes none of its pulses here:
    /// ports written twice on both sides set Icarus bouncing between the
    /// two blocks at one instant.
    pub bit_number_load: Signal<Out, Bit>,
    pub bit_number: Signal<Out, Bits<6>>,
    pub guess_column_load: Signal<Out, Bit>,
    pub guess_column: Signal<Out, Bits<6>>,
    pub known_load: Signal<Out, Bit>,
    pub guess_fetch: Signal<Out, Bit>,
    pub guess_set: Signal<Out, Bit>,
    pub finish: Signal<Out, Bit>,
    pub finish_gave_up: Signal<Out, Bit>,
    pub finish_keeps: Signal<Out, Bit>,
    /// ... and to the board memory.
    pub read_used: Signal<Out, Bit>,
    pub write: Signal<Out, Bit>,
    pub write_address: Signal<Out, Bits<8>>,
    pub save: Signal<Out, Bit>,
    /// For the read flags: the next step reads the scanned row, the
    /// guessed row, the undone cell's row; this step is GuessFetch, reads
    /// another saved row, is UndoRow.
    pub next_scan: Signal<Out, Bit>,
    pub next_guess: Signal<Out, Bit>,
    pub next_undo_row: Signal<Out, Bit>,
    pub saving_more: Signal<Out, Bit>,
    pub undoing_row: Signal<Out, Bit>,
    /// The rows and cells the board memory reads and writes.
    pub scan_row: Signal<Out, Bits<6>>,
    pub guess_row: Signal<Out, Bits<6>>,
    pub save_row: Signal<Out, Bits<6>>,
    pub undo_row: Signal<Out, Bits<6>>,
    pub undo_column: Signal<Out, Bits<6>>,
    pub guess_value: Signal<Out, Bit>,
    /// Registered pulses: the scanned row's word is on the read port; the
    /// guessed row's; a cell is undone; a backtrack (the dirty bits); a
    /// guess (the visit order goes on from its row).
    pub scan_load: Signal<Out, Bit>,
    pub guess_load: Signal<Out, Bit>,
    pub undoing: Signal<Out, Bit>,
    pub forgetting: Signal<Out, Bit>,
    pub to_guess: Signal<Out, Bit>,
    /// Kept flags: no budget; a solution is kept; gave up for the trail.
    pub no_search: Signal<Out, Bit>,
    pub solution_kept: Signal<Out, Bit>,
    pub trail_full: Signal<Out, Bit>,
    pub nodes: Signal<Out, Bits<32>>,
    pub backtracks: Signal<Out, Bits<32>>,
    counts: SearchCounts,
    walk: UndoWalk,
    rounds: ProbeRounds,
    step: DFF<Step>,
    // Check's event is a backtrack (else a choice); giving up.
    backtracking: DFF<Bit>,
    giving_up: DFF<Bit>,
    solution_kept_q: DFF<Bit>,
    trail_full_q: DFF<Bit>,
    guess_row_q: DFF<Bits<6>>,
    guess_value_q: DFF<Bit>,
    guess_second: DFF<Bit>,
    scan_row_q: DFF<Bits<6>>,
    scan_load_q: DFF<Bit>,
    guess_load_q: DFF<Bit>,
    undoing_q: DFF<Bit>,
    forgetting_q: DFF<Bit>,
    to_guess_q: DFF<Bit>,
    branch_now: Signal<Local, Bit>,
}

mod steps;

#[cfg(test)]
mod tests;
