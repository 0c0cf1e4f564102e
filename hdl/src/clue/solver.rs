//! The clue engine's solver: solves a board of up to 64×64 from its clues,
//! visiting dirty lines with the complete line solver of `line_solver.rs`,
//! and searching when line logic stalls. Its parts:
//!
//! * [`ClueStore`](crate::clue::clue_store): the clues, read by the line solver;
//! * [`BoardMemory`](crate::clue::board_memory): Known and Value, a row copy
//!   and a column copy, and the first solution;
//! * [`VisitOrder`](crate::clue::visit_order): which line next, and which
//!   lines are dirty;
//! * [`LineWords`](crate::clue::line_words): the visited line's words, and
//!   which newly fixed cell is copied into its crossing line next;
//! * [`CrossingWriter`](crate::clue::crossing_writer): the visited line
//!   written back, and each newly fixed cell into its crossing line;
//! * [`Search`](crate::clue::search): the depth-first search and its undo
//!   trail, which the solver hands the board to at a stall;
//! * [`Tally`](crate::clue::tally): the counts (cells, known cells, cycles,
//!   passes);
//! * [`Verdict`](crate::clue::verdict): how the solve ends (when no line is
//!   dirty, at a contradiction, at the search's end), and DETAIL.
//!
//! This block is the state machine of a visit that drives them.
//!
//! # A visit, cycle by cycle
//!
//! seek and look (the line is dirty) · fetch (line table and Known asked) · load
//! (Value asked; the line is clean now) · start · the line solver (k + 2L +
//! 6, its result taken in its last cycle) · write Known · write Value · 3 per
//! newly fixed cell (read the crossing line's words, set the cell in both;
//! the crossing line is dirty now) · advance: k + 2L + 14 cycles plus 3 per
//! newly fixed cell, after 128 to clear the board, and two cycles for each
//! clean line passed over and for the last look (`clue_model.rs` counts the
//! same). The solve ends on a line with no fill (CONTRADICTION) or when no
//! line is dirty (SOLVED when all m·n cells are known, STALLED otherwise).
//!
//! # Search
//!
//! With a budget, a stall starts a depth-first search (the `Search` block,
//! under `State::Search`; `clue_model::search` is its model): guess the first
//! unknown cell, filled first, as a visit of its row whose result is that
//! cell; every cell fixed from the first guess on goes on the undo trail
//! (block RAM); a contradiction pops the trail to the latest guess with a
//! value left and tries it; the first solution is copied into the solution
//! memory, a second ends the search (SEVERAL); no guess left ends it (SOLVED
//! with the kept solution, or CONTRADICTION); past the budget every guess is
//! undone (GAVE_UP).
//!
//! Many decisions go through registers a cycle ahead (pulses high in the
//! cycle they act in): the clue bitstream is at 71 % of the logic cells, and
//! each was a critical path nextpnr named on the way to 100 MHz.

use crate::clue::board_memory::BoardMemory;
use crate::clue::clue_store::ClueStore;
use crate::clue::clue_store::CLUE_STORE_BITS;
use crate::clue::crossing_writer::CrossingWriter;
use crate::clue::line_solver::LineSolver;
use crate::clue::line_words::LineWords;
use crate::clue::search::Search;
use crate::clue::tally::Tally;
use crate::clue::verdict::Verdict;
use crate::clue::visit_order::VisitOrder;
use crate::common::line_reg::CellReg;
use crate::common::params::CYCLE_BITS;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum State {
    Idle,
    Clear,
    /// A line is looked at in two cycles: Seek takes its dirty bit out of
    /// the 128 (a 64-way multiplexer, registered: deciding on it in the same
    /// cycle held the clue bitstream to 88 MHz), Look visits the line if it
    /// is dirty or goes on to the next. The solve ends in Look when no line
    /// is dirty.
    Seek,
    Look,
    Fetch,
    Load,
    Start,
    Solve,
    /// The crossing writer writes the line and its crossings.
    Write,
    Advance,
    /// The search block has the board (its `finish` or `guess_set` ends
    /// this state).
    Search,
    Done,
}

#[derive(LogicBlock, Default)]
pub struct ClueSolver {
    pub clock: Signal<In, Clock>,
    /// Boards of at most 32 rows and columns: a constant of the core, which
    /// leaves yosys only the low half of every line register to build
    /// (`LineReg`).
    pub narrow: Signal<In, Bit>,
    /// Stop whatever is going on.
    pub abort: Signal<In, Bit>,
    /// Pulse: the clues of a `rows` × `columns` board are loaded; solve it.
    pub start: Signal<In, Bit>,
    pub rows: Signal<In, Bits<7>>,
    pub columns: Signal<In, Bits<7>>,
    /// The loader's write ports: one block length, and one line's table entry.
    pub clue_write: Signal<In, Bit>,
    pub clue_address: Signal<In, Bits<CLUE_STORE_BITS>>,
    pub clue_length: Signal<In, Bits<7>>,
    pub line_write: Signal<In, Bit>,
    pub line_number: Signal<In, Bits<7>>,
    pub line_first: Signal<In, Bits<CLUE_STORE_BITS>>,
    pub line_blocks: Signal<In, Bits<6>>,
    /// With `start`: the search budget in units of 2^20 cycles; 0 is line
    /// logic alone (STALLED where it stalls).
    pub budget: Signal<In, Bits<12>>,
    /// With `start`: first-solution mode, the search stops at the first
    /// solution (SOLVED, `first_found`) instead of looking for a second.
    pub first_only: Signal<In, Bit>,
    /// With `start`: probe before every branch (`clue_model::probe`).
    pub probe: Signal<In, Bit>,
    /// After `done`: the reply reads row `read_row`'s Known (`read_value` low)
    /// or Value word, on `row_word` one cycle later.
    pub read_row: Signal<In, Bits<6>>,
    pub read_value: Signal<In, Bit>,
    /// For SEVERAL: read the row's DIFFERS word (where the second solution
    /// differs from the first) instead.
    pub read_differs: Signal<In, Bit>,
    pub row_word: Signal<Out, Bits<64>>,
    pub busy: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    pub outcome: Signal<Out, Bits<3>>,
    /// The reply's DETAIL (see `clue_model`): for a contradiction the line
    /// with no fill (rows 0..m, then columns; SEARCHED when a search refuted
    /// every guess); for SOLVED, FIRST_FOUND when first-solution mode's
    /// search found it; for GAVE_UP, whether the budget or the trail ran
    /// out; else 0.
    pub detail: Signal<Out, Bits<8>>,
    pub cycles: Signal<Out, Bits<CYCLE_BITS>>,
    pub passes: Signal<Out, Bits<8>>,
    /// The board's cells (rows × columns), and whether every one is known.
    pub board_cells: Signal<Out, Bits<13>>,
    pub all_known: Signal<Out, Bit>,
    /// Search statistics: guesses made, and times the search went back.
    pub nodes: Signal<Out, Bits<32>>,
    pub backtracks: Signal<Out, Bits<32>>,
    line_solver: LineSolver,
    store: ClueStore<7>,
    board: BoardMemory,
    order: VisitOrder,
    words: LineWords,
    writer: CrossingWriter,
    search: Search,
    tally: Tally,
    verdict: Verdict,
    state: DFF<State>,
    counter: DFF<Bits<8>>,
    line_bit: CellReg,
    // The bit `line_bit` has a cycle later: the line's number for a visit
    // (set in Look), the guessed column then row for a guess, the column
    // then row of each cell undone. (A register to register decoder.)
    bit_number: DFF<Bits<6>>,
    // The cell being copied into its crossing line, or guessed.
    copied_cell: DFF<Bits<6>>,
    // Pulses for the dirty bits (see `VisitOrder`): Fetch, a guess's first
    // write (and the writer's `crossing`, the search's backtrack).
    cleaning: DFF<Bit>,
    marking: DFF<Bit>,
    // The next state's read flags, from the state before (see the end).
    keeps_state: Signal<Local, Bit>,
    look_fetch: Signal<Local, Bit>,
    look_save: Signal<Local, Bit>,
    next_save_read: Signal<Local, Bit>,
    // The line solver's start, set in Load for the Start cycle: a registered
    // pulse, because decoded from `state` it fanned out to the line
    // solver's 400 registers and missed 100 MHz on a nextpnr seed.
    start_line: DFF<Bit>,
    // A guess has been made: a contradiction goes back, a full board is kept.
    searching: DFF<Bit>,
    // The guess's Advance does not move on (its row is visited first).
    after_guess: DFF<Bit>,
    // Look and Advance: go on to the next line.
    next_line: Signal<Local, Bit>,
}

mod visit;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod verilog;
