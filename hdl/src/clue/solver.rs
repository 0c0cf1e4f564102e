//! The clue engine's solver: solves a board of up to 64×64 from its clues,
//! visiting dirty lines with the complete line solver of `line_solver.rs`,
//! and searching when line logic stalls. Its parts:
//!
//! * [`ClueStore`](crate::clue::clue_store): the clues, read by the line solver;
//! * [`BoardMemory`](crate::clue::board_memory): Known and Value, a row copy
//!   and a column copy, and the first solution;
//! * [`VisitOrder`](crate::clue::visit_order): which line next, and which
//!   lines are dirty;
//! * [`FreshFinder`](crate::clue::fresh_finder): which newly fixed cell is
//!   copied into its crossing line next;
//! * [`Trail`](crate::clue::trail): the search's undo trail.
//!
//! This block is the state machine that drives them.
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
//! With a budget, a stall starts a depth-first search (`SearchStep`, under
//! `State::Search`; `clue_model::search` is its model): guess the first
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
use crate::clue::clue_model::{BUDGET_UNIT_BITS, SEARCHED, TRAIL_ENTRIES};
use crate::clue::clue_store::ClueStore;
use crate::clue::clue_store::CLUE_STORE_BITS;
use crate::clue::fresh_finder::FreshFinder;
use crate::clue::line_solver::LineSolver;
use crate::clue::trail::Trail;
use crate::clue::visit_order::VisitOrder;
use crate::common::params::CYCLE_BITS;
use crate::constant;
use crate::link::protocol::status::outcome;
use rust_hdl::prelude::*;

// The budget compare takes the cycle count's bits 31..20.
const _: () = assert!(BUDGET_UNIT_BITS == 20 && CYCLE_BITS == 32);

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
    WriteKnown,
    WriteValue,
    CrossRead,
    CrossKnown,
    CrossValue,
    Advance,
    /// Searching: `search_step` says where.
    Search,
    Done,
}

/// The steps of the search (see `clue_model::search`, and the figures
/// there), a state machine of its own under `State::Search`: so that the
/// line visit's states stay few and quick to decode (with all of them in
/// one enum the clue bitstream reached 87 MHz).
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum SearchStep {
    /// A stall, a solution kept or a contradiction while searching: give
    /// up (budget, or too many unknown cells for the trail), go back, or
    /// choose a cell.
    Check,
    /// The first unknown cell: a row's Known word is read, its unknown
    /// cells put in `fresh`, and the lowest found in two steps.
    ScanRead,
    ScanCheck,
    ScanWait,
    ScanPick,
    /// A guess is a visit of its row whose result is the guessed cell:
    /// the row is read, the cell set, and the visit's write-back copies it
    /// into the column and pushes it on the trail.
    GuessFetch,
    GuessLoad,
    GuessSet,
    /// The first solution, a row a step, into the solution memory.
    SaveRead,
    SaveWrite,
    /// One trail entry undone: clear its Known bit in the row copy, then
    /// in the column copy.
    UndoRow,
    UndoColumn,
    UndoWrite,
}

#[derive(LogicBlock)]
pub struct ClueSolver {
    pub clock: Signal<In, Clock>,
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
    store: ClueStore,
    board: BoardMemory,
    order: VisitOrder,
    finder: FreshFinder,
    trail: Trail,
    state: DFF<State>,
    search_step: DFF<SearchStep>,
    cells: DFF<Bits<13>>,
    counter: DFF<Bits<8>>,
    // The visited line's Known word, and what its visit leaves: Known,
    // Value, and the cells it fixed that the crossing lines lack.
    line_known: DFF<Bits<64>>,
    new_known: DFF<Bits<64>>,
    new_value: DFF<Bits<64>>,
    fresh: DFF<Bits<64>>,
    line_bit: DFF<Bits<64>>,
    // The bit `line_bit` has a cycle later: the line's number for a visit
    // (set in Look), the guessed column then row for a guess, the column
    // then row of each cell undone. (A register to register decoder.)
    bit_number: DFF<Bits<6>>,
    // The cell being copied into its crossing line, or guessed.
    copied_cell: DFF<Bits<6>>,
    known_cells: DFF<Bits<13>>,
    // Pulses for the dirty bits (see `VisitOrder`): Fetch, CrossRead, a
    // guess's WriteKnown, a backtrack's Check.
    cleaning: DFF<Bit>,
    crossing: DFF<Bit>,
    marking: DFF<Bit>,
    forgetting: DFF<Bit>,
    // Every cell is known: registered, so that the compare is off the path
    // into `outcome_q` (with it there the clue bitstream missed 100 MHz on
    // two nextpnr seeds of five). Seek reads it a cycle late, which is
    // exact: Advance, between the last change and Seek, changes nothing.
    board_known: DFF<Bit>,
    // The next state's read flags, from the state before (see the end).
    keeps_state: Signal<Local, Bit>,
    look_fetch: Signal<Local, Bit>,
    look_save: Signal<Local, Bit>,
    next_save_read: Signal<Local, Bit>,
    // The line solver's start, set in Load for the Start cycle: a registered
    // pulse, because decoded from `state` it fanned out to the line
    // solver's 400 registers and missed 100 MHz on a nextpnr seed.
    start_line: DFF<Bit>,
    outcome_q: DFF<Bits<3>>,
    cycles_q: DFF<Bits<CYCLE_BITS>>,
    passes_q: DFF<Bits<8>>,
    done_q: DFF<Bit>,
    // The search's registers.
    budget_q: DFF<Bits<12>>,
    no_search: DFF<Bit>,
    // Registered compares (they feed the state's decisions): the cycle
    // count is past the budget; the unknown cells fit the trail;
    // `save_row` is the last row.
    over_budget: DFF<Bit>,
    trail_fits: DFF<Bit>,
    save_last: DFF<Bit>,
    searching: DFF<Bit>,
    // The Check's event is a backtrack (else a choice); giving up.
    backtracking: DFF<Bit>,
    giving_up: DFF<Bit>,
    // The first solution is in the solution memory; the answer is read
    // from there.
    solution_kept: DFF<Bit>,
    first_only_q: DFF<Bit>,
    first_found_q: DFF<Bit>,
    // Gave up because the unknown cells would not fit the trail.
    trail_full: DFF<Bit>,
    answer_kept: DFF<Bit>,
    guess_row: DFF<Bits<6>>,
    guess_value: DFF<Bit>,
    guess_second: DFF<Bit>,
    // The next trail push is the guess itself; the guess's Advance does not
    // move on (its row is visited first).
    guess_pending: DFF<Bit>,
    after_guess: DFF<Bit>,
    scan_row: DFF<Bits<6>>,
    save_row: DFF<Bits<6>>,
    nodes_q: DFF<Bits<32>>,
    backtracks_q: DFF<Bits<32>>,
    // Counts change on registered pulses, a cycle after their state (their
    // wide enables then come from flip-flops).
    count_node: DFF<Bit>,
    count_backtrack: DFF<Bit>,
    cell_fixed: DFF<Bit>,
    cell_undone: DFF<Bit>,
    // Pulses for the wide registers' loads (see them).
    scan_load: DFF<Bit>,
    guess_load: DFF<Bit>,
    to_guess: DFF<Bit>,
    // `fresh` has a bit, a cycle late (the 64-bit OR is off the path into
    // `state`): WriteValue and CrossValue come a cycle after `fresh` changed.
    fresh_any: DFF<Bit>,
    // The line is line 0, and the passes saturated: for Look, registered
    // in Seek (the line does not move there).
    at_line_zero: DFF<Bit>,
    passes_full: DFF<Bit>,
    // What UndoWrite does, decided in UndoColumn from registers.
    undo_reguess: DFF<Bit>,
    undo_last: DFF<Bit>,
    undo_outcome: DFF<Bits<3>>,
    undo_keeps: DFF<Bit>,
    unknown_cells: Signal<Local, Bits<13>>,
    solved_known: Signal<Local, Bits<64>>,
    solved_value: Signal<Local, Bits<64>>,
    // Look and Advance: go on to the next line.
    next_line: Signal<Local, Bit>,
    one: Constant<Bits<64>>,
    solved: Constant<Bits<3>>,
    contradiction: Constant<Bits<3>>,
    stalled: Constant<Bits<3>>,
    several: Constant<Bits<3>>,
    gave_up: Constant<Bits<3>>,
    trail_entries: Constant<Bits<13>>,
    searched: Constant<Bits<8>>,
    first_found_detail: Constant<Bits<8>>,
    budget_ran_out: Constant<Bits<8>>,
    trail_ran_out: Constant<Bits<8>>,
}

impl Default for ClueSolver {
    fn default() -> Self {
        ClueSolver {
            clock: Default::default(),
            abort: Default::default(),
            start: Default::default(),
            rows: Default::default(),
            columns: Default::default(),
            clue_write: Default::default(),
            clue_address: Default::default(),
            clue_length: Default::default(),
            line_write: Default::default(),
            line_number: Default::default(),
            line_first: Default::default(),
            line_blocks: Default::default(),
            budget: Default::default(),
            first_only: Default::default(),
            read_row: Default::default(),
            read_value: Default::default(),
            read_differs: Default::default(),
            row_word: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            outcome: Default::default(),
            detail: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            board_cells: Default::default(),
            all_known: Default::default(),
            nodes: Default::default(),
            backtracks: Default::default(),
            line_solver: Default::default(),
            store: Default::default(),
            board: Default::default(),
            order: Default::default(),
            finder: Default::default(),
            trail: Default::default(),
            state: Default::default(),
            search_step: Default::default(),
            cells: Default::default(),
            counter: Default::default(),
            line_known: Default::default(),
            new_known: Default::default(),
            new_value: Default::default(),
            fresh: Default::default(),
            line_bit: Default::default(),
            bit_number: Default::default(),
            copied_cell: Default::default(),
            known_cells: Default::default(),
            cleaning: Default::default(),
            crossing: Default::default(),
            marking: Default::default(),
            forgetting: Default::default(),
            board_known: Default::default(),
            keeps_state: Default::default(),
            look_fetch: Default::default(),
            look_save: Default::default(),
            next_save_read: Default::default(),
            start_line: Default::default(),
            outcome_q: Default::default(),
            cycles_q: Default::default(),
            passes_q: Default::default(),
            done_q: Default::default(),
            budget_q: Default::default(),
            no_search: Default::default(),
            over_budget: Default::default(),
            trail_fits: Default::default(),
            save_last: Default::default(),
            searching: Default::default(),
            backtracking: Default::default(),
            giving_up: Default::default(),
            solution_kept: Default::default(),
            first_only_q: Default::default(),
            first_found_q: Default::default(),
            trail_full: Default::default(),
            answer_kept: Default::default(),
            guess_row: Default::default(),
            guess_value: Default::default(),
            guess_second: Default::default(),
            guess_pending: Default::default(),
            after_guess: Default::default(),
            scan_row: Default::default(),
            save_row: Default::default(),
            nodes_q: Default::default(),
            backtracks_q: Default::default(),
            count_node: Default::default(),
            count_backtrack: Default::default(),
            cell_fixed: Default::default(),
            cell_undone: Default::default(),
            scan_load: Default::default(),
            guess_load: Default::default(),
            to_guess: Default::default(),
            fresh_any: Default::default(),
            at_line_zero: Default::default(),
            passes_full: Default::default(),
            undo_reguess: Default::default(),
            undo_last: Default::default(),
            undo_outcome: Default::default(),
            undo_keeps: Default::default(),
            unknown_cells: Default::default(),
            solved_known: Default::default(),
            solved_value: Default::default(),
            next_line: Default::default(),
            one: constant(1u64),
            solved: constant(outcome::SOLVED),
            contradiction: constant(outcome::CONTRADICTION),
            stalled: constant(outcome::STALLED),
            several: constant(outcome::SEVERAL),
            gave_up: constant(outcome::GAVE_UP),
            trail_entries: constant(TRAIL_ENTRIES as u64),
            searched: constant(SEARCHED as u64),
            first_found_detail: constant(crate::clue::clue_model::FIRST_FOUND),
            budget_ran_out: constant(crate::clue::clue_model::BUDGET_RAN_OUT),
            trail_ran_out: constant(crate::clue::clue_model::TRAIL_RAN_OUT),
        }
    }
}

impl Logic for ClueSolver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            search_step,
            cells,
            counter,
            line_known,
            new_known,
            new_value,
            fresh,
            line_bit,
            bit_number,
            copied_cell,
            known_cells,
            cleaning,
            crossing,
            marking,
            forgetting,
            board_known,
            start_line,
            outcome_q,
            cycles_q,
            passes_q,
            done_q,
            budget_q,
            no_search,
            over_budget,
            trail_fits,
            save_last,
            searching,
            backtracking,
            giving_up,
            solution_kept,
            first_only_q,
            first_found_q,
            trail_full,
            answer_kept,
            guess_row,
            guess_value,
            guess_second,
            guess_pending,
            after_guess,
            scan_row,
            save_row,
            nodes_q,
            backtracks_q,
            count_node,
            count_backtrack,
            cell_fixed,
            cell_undone,
            scan_load,
            guess_load,
            to_guess,
            fresh_any,
            at_line_zero,
            passes_full,
            undo_reguess,
            undo_last,
            undo_outcome,
            undo_keeps
        );
        self.line_solver.clock.next = self.clock.val();
        self.store.clock.next = self.clock.val();
        self.board.clock.next = self.clock.val();
        self.order.clock.next = self.clock.val();
        self.finder.clock.next = self.clock.val();
        self.trail.clock.next = self.clock.val();

        // The loader fills the clue store; the line solver reads its clue
        // from there.
        self.store.clue_write.next = self.clue_write.val();
        self.store.clue_address.next = self.clue_address.val();
        self.store.clue_length.next = self.clue_length.val();
        self.store.line_write.next = self.line_write.val();
        self.store.line_number.next = self.line_number.val();
        self.store.line_first.next = self.line_first.val();
        self.store.line_blocks.next = self.line_blocks.val();
        self.store.line.next = self.order.line.val();
        self.store.load.next = self.state.q.val() == State::Load;
        self.store.solving.next = (self.state.q.val() == State::Start) | (self.state.q.val() == State::Solve);
        self.store.block.next = self.line_solver.clue_address.val();
        self.line_solver.clue_length.next = self.store.length.val();
        self.line_solver.start.next = self.start_line.q.val();
        self.start_line.d.next = false;
        self.line_solver.length.next = self.order.length.val();
        self.line_solver.blocks.next = self.store.blocks.val();
        self.line_solver.known.next = self.line_known.q.val();
        self.line_solver.value.next = self.board.read_data.val();
        self.solved_known.next = self.line_solver.can_fill.val() ^ self.line_solver.can_empty.val();
        self.solved_value.next = self.line_solver.can_fill.val() & !self.line_solver.can_empty.val();

        self.finder.fresh.next = self.fresh.q.val();
        self.finder.value.next = self.new_value.q.val();

        // The board memory: the lines its read flags name, the written
        // word's pulses (a visit's words, a crossing, an undo) and the
        // reply's reads. A visit's reads and writes are marked in its
        // states below.
        self.board.reply_row.next = self.read_row.val();
        self.board.index.next = self.order.index.val();
        self.board.is_column.next = self.order.is_column.val();
        self.board.copied_cell.next = self.copied_cell.q.val();
        self.board.scan_row.next = self.scan_row.q.val();
        self.board.guess_row.next = self.guess_row.q.val();
        self.board.save_row.next = self.save_row.q.val();
        self.board.undo_row.next = self.trail.row.val();
        self.board.undo_column.next = self.trail.column.val();
        self.board.visit_written.next = self.line_solver.done.val() | self.guess_load.q.val();
        self.board.crossing.next = self.crossing.q.val();
        self.board.undoing.next = self.cell_undone.q.val();
        self.board.new_known.next = self.new_known.q.val();
        self.board.new_value.next = self.new_value.q.val();
        self.board.line_bit.next = self.line_bit.q.val();
        self.board.copied_value.next = self.finder.copied_value.val();
        self.board.done.next = self.state.q.val() == State::Done;
        self.board.answer_kept.next = self.answer_kept.q.val();
        self.board.reply_value.next = self.read_value.val();
        self.board.reply_differs.next = self.read_differs.val();
        self.board.read_used.next = self.state.q.val() == State::Done;
        self.board.write.next = false;
        self.board.write_address.next = bit_cast::<8, 6>(self.order.index.val());
        self.board.save.next = false;
        self.row_word.next = self.board.row_word.val();

        // The trail: since the first guess every fixed cell is pushed.
        self.trail.clear.next = self.start.val();
        self.trail.push.next = false;
        self.trail.pop.next = false;
        self.trail.latch.next = false;
        self.trail.line_index.next = self.order.index.val();
        self.trail.fixed_cell.next = self.copied_cell.q.val();
        self.trail.is_column.next = self.order.is_column.val();
        self.trail.guess.next = self.guess_pending.q.val();
        self.trail.guess_value.next = self.guess_value.q.val();
        self.trail.second.next = self.guess_second.q.val();
        self.trail.reading.next = (self.state.q.val() == State::Search)
            & ((self.search_step.q.val() == SearchStep::Check)
                | (self.search_step.q.val() == SearchStep::UndoWrite));

        self.order.start.next = self.start.val();
        self.order.start_rows.next = self.rows.val();
        self.order.start_columns.next = self.columns.val();
        self.order.abort.next = self.abort.val();
        self.order.clearing.next = self.state.q.val() == State::Clear;
        self.order.counter.next = self.counter.q.val();
        self.order.cleaning.next = self.cleaning.q.val();
        self.order.crossing.next = self.crossing.q.val();
        self.order.marking.next = self.marking.q.val();
        self.order.forgetting.next = self.forgetting.q.val();
        self.order.line_bit.next = self.line_bit.q.val();
        self.order.copied_bit.next = self.finder.copied_bit.val();

        self.line_bit.d.next = self.one.val() << self.bit_number.q.val();
        self.marking.d.next = false;
        self.forgetting.d.next = false;
        self.count_node.d.next = false;
        self.count_backtrack.d.next = false;
        self.cell_fixed.d.next = false;
        self.cell_undone.d.next = false;
        self.scan_load.d.next = false;
        self.guess_load.d.next = false;
        self.to_guess.d.next = false;
        self.fresh_any.d.next = self.fresh.q.val().any();
        self.at_line_zero.d.next = self.order.line.val() == 0;
        self.passes_full.d.next = self.passes_q.q.val() == 255;
        if self.count_node.q.val() {
            self.nodes_q.d.next = self.nodes_q.q.val() + 1;
        }
        if self.count_backtrack.q.val() {
            self.backtracks_q.d.next = self.backtracks_q.q.val() + 1;
        }
        if self.cell_fixed.q.val() {
            self.known_cells.d.next = self.known_cells.q.val() + 1;
        }
        if self.cell_undone.q.val() {
            self.known_cells.d.next = self.known_cells.q.val() - 1;
        }
        self.board_cells.next = self.cells.q.val();
        self.all_known.next = (self.known_cells.q.val() == self.cells.q.val()) | self.answer_kept.q.val();
        self.done_q.d.next = false;
        self.next_line.next = false;
        self.cleaning.d.next = false;
        self.crossing.d.next = false;

        match self.state.q.val() {
            State::Idle => {}
            State::Clear => {
                // Known words of both copies: addresses 0..64 and 128..192.
                self.board.write.next = true;
                self.board.write_address.next =
                    (self.counter.q.val() & 63) | ((self.counter.q.val() & 64) << 1);
                self.counter.d.next = self.counter.q.val() + 1;
                // m·n, as m additions of n (there is no multiplier).
                if self.counter.q.val() < bit_cast::<8, 7>(self.order.rows.val()) {
                    self.cells.d.next = self.cells.q.val() + bit_cast::<13, 7>(self.order.columns.val());
                }
                if self.counter.q.val() == 127 {
                    self.state.d.next = State::Seek;
                }
            }
            State::Seek => {
                self.state.d.next = State::Look;
            }
            State::Look => {
                self.bit_number.d.next = self.order.index.val();
                if self.at_line_zero.q.val() & !self.passes_full.q.val() {
                    self.passes_q.d.next = self.passes_q.q.val() + 1;
                }
                if !self.order.any_dirty.val() {
                    if self.board_known.q.val() {
                        if !self.searching.q.val() {
                            self.outcome_q.d.next = self.solved.val();
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        } else if self.first_only_q.q.val() {
                            // First-solution mode: this one will do.
                            self.outcome_q.d.next = self.solved.val();
                            self.first_found_q.d.next = true;
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        } else if self.solution_kept.q.val() {
                            self.outcome_q.d.next = self.several.val();
                            self.answer_kept.d.next = true;
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        } else {
                            self.save_row.d.next = 0.into();
                            self.state.d.next = State::Search;
                            self.search_step.d.next = SearchStep::SaveRead;
                        }
                    } else if self.no_search.q.val() {
                        self.outcome_q.d.next = self.stalled.val();
                        self.done_q.d.next = true;
                        self.state.d.next = State::Done;
                    } else {
                        self.backtracking.d.next = false;
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::Check;
                    }
                } else if self.order.line_dirty.val() {
                    self.state.d.next = State::Fetch;
                } else {
                    self.next_line.next = true;
                    self.state.d.next = State::Seek;
                }
            }
            State::Fetch => {
                self.board.read_used.next = true;
                self.cleaning.d.next = true;
                self.state.d.next = State::Load;
            }
            State::Load => {
                self.board.read_used.next = true;
                self.line_known.d.next = self.board.read_data.val();
                self.start_line.d.next = true;
                self.state.d.next = State::Start;
            }
            State::Start => {
                // Value arrives now; the line table's word is still on its
                // port; `start_line` starts the line solver.
                self.state.d.next = State::Solve;
            }
            State::Solve => {
                // (The result goes into `new_known`, `new_value`, `fresh`:
                // see the wide registers' loads.)
                if self.line_solver.done.val() {
                    self.state.d.next = State::WriteKnown;
                    if !self.line_solver.feasible.val() {
                        if self.searching.q.val() {
                            self.backtracking.d.next = true;
                            self.state.d.next = State::Search;
                            self.search_step.d.next = SearchStep::Check;
                        } else {
                            self.outcome_q.d.next = self.contradiction.val();
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        }
                    }
                }
            }
            State::WriteKnown => {
                // A guess's row is dirty (`line_bit` is its bit from WriteValue on).
                self.marking.d.next = self.after_guess.q.val();
                self.board.write.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.order.index.val())
                    | (bit_cast::<8, 1>(self.order.is_column.val().into()) << 7);
                self.state.d.next = State::WriteValue;
            }
            State::WriteValue => {
                self.board.write.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.order.index.val())
                    | (bit_cast::<8, 1>(self.order.is_column.val().into()) << 7)
                    | 64;
                self.copied_cell.d.next = self.finder.lowest_cell.val();
                self.state.d.next = State::Advance;
                if self.fresh_any.q.val() {
                    self.crossing.d.next = true;
                    self.state.d.next = State::CrossRead;
                }
            }
            // Each newly fixed cell into the other copy: read its Known and
            // Value words, set this line's bit in both.
            State::CrossRead => {
                // (The cell's value reaches the finder's `copied_value` for
                // CrossValue.)
                self.board.read_used.next = true;
                self.state.d.next = State::CrossKnown;
            }
            State::CrossKnown => {
                self.board.read_used.next = true;
                self.board.write.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.order.is_column.val()).into()) << 7);
                self.state.d.next = State::CrossValue;
            }
            State::CrossValue => {
                self.board.write.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.order.is_column.val()).into()) << 7)
                    | 64;
                self.copied_cell.d.next = self.finder.lowest_cell.val();
                self.cell_fixed.d.next = true;
                if self.searching.q.val() {
                    self.trail.push.next = true;
                    self.guess_pending.d.next = false;
                }
                self.state.d.next = State::Advance;
                if self.fresh_any.q.val() {
                    self.crossing.d.next = true;
                    self.state.d.next = State::CrossRead;
                }
            }
            State::Advance => {
                self.next_line.next = !self.after_guess.q.val();
                self.after_guess.d.next = false;
                self.state.d.next = State::Seek;
            }
            State::Search => match self.search_step.q.val() {
                SearchStep::Check => {
                    // An undo starts with the column of the trail's top entry.
                    self.bit_number.d.next = self.trail.top_column.val();
                    self.trail.latch.next = true;
                    if self.over_budget.q.val() | (!self.backtracking.q.val() & !self.trail_fits.q.val()) {
                        self.giving_up.d.next = true;
                        self.trail_full.d.next = !self.over_budget.q.val();
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::UndoRow;
                        if self.trail.empty.val() {
                            self.outcome_q.d.next = self.gave_up.val();
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        }
                    } else if self.backtracking.q.val() {
                        self.forgetting.d.next = true;
                        self.count_backtrack.d.next = true;
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::UndoRow;
                    } else {
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::ScanRead;
                    }
                }
                SearchStep::ScanRead => {
                    self.board.read_used.next = true;
                    self.scan_load.d.next = true;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::ScanCheck;
                }
                SearchStep::ScanCheck => {
                    // (`fresh` takes the row's unknown cells: see `scan_load`.)
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::ScanWait;
                }
                SearchStep::ScanWait => {
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::ScanPick;
                }
                SearchStep::ScanPick => {
                    // (`fresh_any` is whether the finder's bytes have a bit.)
                    if self.fresh_any.q.val() {
                        // Filled first: on random puzzles either order decides
                        // as many (`search_plan`), and filled cells fix more.
                        self.guess_row.d.next = self.scan_row.q.val();
                        // (Through `copied_cell`: the lowest-cell finder's
                        // carry chain is too slow for `bit_number` too.)
                        self.copied_cell.d.next = self.finder.lowest_cell.val();
                        self.guess_value.d.next = true;
                        self.guess_second.d.next = false;
                        self.count_node.d.next = true;
                        self.to_guess.d.next = true;
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::GuessFetch;
                    } else {
                        self.scan_row.d.next = self.scan_row.q.val() + 1;
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::ScanRead;
                    }
                }
                SearchStep::GuessFetch => {
                    self.board.read_used.next = true;
                    // (The schedule moves to the guessed row: see `to_guess`.)
                    self.guess_pending.d.next = true;
                    self.after_guess.d.next = true;
                    self.bit_number.d.next = self.copied_cell.q.val();
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::GuessLoad;
                }
                SearchStep::GuessLoad => {
                    self.board.read_used.next = true;
                    self.line_known.d.next = self.board.read_data.val();
                    self.guess_load.d.next = true;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::GuessSet;
                }
                SearchStep::GuessSet => {
                    // (The row's words take the guess: see `guess_load`.)
                    // `line_bit` is the guessed column's bit now; next it
                    // becomes the guessed row's.
                    self.bit_number.d.next = self.guess_row.q.val();
                    self.state.d.next = State::WriteKnown;
                }
                SearchStep::SaveRead => {
                    self.board.read_used.next = true;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::SaveWrite;
                }
                SearchStep::SaveWrite => {
                    self.board.save.next = true;
                    self.save_row.d.next = self.save_row.q.val() + 1;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::SaveRead;
                    if self.save_last.q.val() {
                        self.solution_kept.d.next = true;
                        self.backtracking.d.next = true;
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::Check;
                    }
                }
                SearchStep::UndoRow => {
                    // (The entry was latched in the step before.)
                    self.bit_number.d.next = self.trail.row.val();
                    self.board.read_used.next = true;
                    self.trail.pop.next = true;
                    self.cell_undone.d.next = true;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::UndoColumn;
                }
                SearchStep::UndoColumn => {
                    self.board.write.next = true;
                    self.board.write_address.next = bit_cast::<8, 6>(self.trail.row.val());
                    // What UndoWrite does, decided here from registers: the
                    // guess's other value; or, with the trail empty, the end
                    // (the kept solution is the only one, or there is none,
                    // or the budget ran out).
                    self.undo_reguess.d.next =
                        !self.giving_up.q.val() & self.trail.was_guess.val() & !self.trail.was_second.val();
                    self.undo_last.d.next = self.trail.bottom.val();
                    self.undo_outcome.d.next = self.contradiction.val();
                    if self.solution_kept.q.val() {
                        self.undo_outcome.d.next = self.solved.val();
                    }
                    if self.giving_up.q.val() {
                        self.undo_outcome.d.next = self.gave_up.val();
                    }
                    self.undo_keeps.d.next = self.solution_kept.q.val() & !self.giving_up.q.val();
                    self.board.read_used.next = true;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::UndoWrite;
                }
                SearchStep::UndoWrite => {
                    self.board.write.next = true;
                    self.board.write_address.next = bit_cast::<8, 6>(self.trail.column.val()) | 128;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::UndoRow;
                    self.bit_number.d.next = self.trail.top_column.val();
                    self.trail.latch.next = true;
                    if self.undo_reguess.q.val() {
                        // The guess's other value.
                        self.guess_row.d.next = self.trail.row.val();
                        self.copied_cell.d.next = self.trail.column.val();
                        self.guess_value.d.next = !self.trail.was_value.val();
                        self.guess_second.d.next = true;
                        self.count_node.d.next = true;
                        self.to_guess.d.next = true;
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::GuessFetch;
                    } else if self.undo_last.q.val() {
                        self.outcome_q.d.next = self.undo_outcome.q.val();
                        self.answer_kept.d.next = self.undo_keeps.q.val();
                        self.done_q.d.next = true;
                        self.state.d.next = State::Done;
                    }
                }
            },
            State::Done => {}
            _ => {
                self.state.d.next = State::Idle;
            }
        }
        self.order.advance.next = self.next_line.val();
        // A guess (GuessFetch, where `to_guess` is high): the visit order
        // goes on from the guessed row, and the search has begun. (On a
        // pulse: decoded from the search's step, these enables missed
        // 100 MHz.)
        self.order.to_guess.next = self.to_guess.q.val();
        self.order.guess_row.next = self.guess_row.q.val();
        if self.to_guess.q.val() {
            self.searching.d.next = true;
            self.scan_row.d.next = self.guess_row.q.val();
        }

        // The wide registers' loads, on pulses from flip-flops (decoded from
        // `state` their enables cost the clue bitstream 100 MHz): the line
        // solver's result (its `done` comes only in Solve); CrossRead, where
        // `crossing` is high, takes the copied cell out of `fresh`;
        // ScanCheck takes the scanned row's unknown cells into `fresh`;
        // GuessSet sets the guessed cell in the row's words.
        if self.line_solver.done.val() {
            self.new_known.d.next = self.solved_known.val();
            self.new_value.d.next = self.solved_value.val();
            self.fresh.d.next = self.solved_known.val() & !self.line_known.q.val();
        }
        if self.crossing.q.val() {
            self.fresh.d.next = self.fresh.q.val() & !self.finder.copied_bit.val();
        }
        if self.scan_load.q.val() {
            self.fresh.d.next = !self.board.read_data.val() & self.order.column_mask.val();
        }
        if self.guess_load.q.val() {
            self.new_known.d.next = self.line_known.q.val() | self.line_bit.q.val();
            self.new_value.d.next = self.board.read_data.val() & !self.line_bit.q.val();
            if self.guess_value.q.val() {
                self.new_value.d.next = self.board.read_data.val() | self.line_bit.q.val();
            }
            self.fresh.d.next = self.line_bit.q.val();
        }
        // The search's compares, registered (see their fields).
        self.over_budget.d.next =
            !self.no_search.q.val() & (self.cycles_q.q.val().get_bits::<12>(20) >= self.budget_q.q.val());
        self.unknown_cells.next = self.cells.q.val() - self.known_cells.q.val();
        self.trail_fits.d.next = self.unknown_cells.val() <= self.trail_entries.val();
        self.save_last.d.next = bit_cast::<7, 6>(self.save_row.q.val()) + 1 == self.order.rows.val();
        self.board_known.d.next = self.known_cells.q.val() == self.cells.q.val();

        self.busy.next = (self.state.q.val() != State::Idle) & (self.state.q.val() != State::Done);
        if self.busy.val() {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
        }
        self.done.next = self.done_q.q.val();
        self.outcome.next = self.outcome_q.q.val();
        self.detail.next = 0.into();
        if self.outcome_q.q.val() == self.contradiction.val() {
            self.detail.next = self.order.line.val();
            if self.searching.q.val() {
                self.detail.next = self.searched.val();
            }
        }
        if self.first_found_q.q.val() {
            self.detail.next = self.first_found_detail.val();
        }
        if self.outcome_q.q.val() == self.gave_up.val() {
            self.detail.next = self.budget_ran_out.val();
            if self.trail_full.q.val() {
                self.detail.next = self.trail_ran_out.val();
            }
        }
        self.nodes.next = self.nodes_q.q.val();
        self.backtracks.next = self.backtracks_q.q.val();
        self.cycles.next = self.cycles_q.q.val();
        self.passes.next = self.passes_q.q.val();

        if self.start.val() {
            self.cells.d.next = 0.into();
            self.counter.d.next = 0.into();
            self.known_cells.d.next = 0.into();
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 0.into();
            self.budget_q.d.next = self.budget.val();
            self.no_search.d.next = self.budget.val() == 0;
            self.searching.d.next = false;
            self.giving_up.d.next = false;
            self.solution_kept.d.next = false;
            self.first_only_q.d.next = self.first_only.val();
            self.first_found_q.d.next = false;
            self.trail_full.d.next = false;
            self.answer_kept.d.next = false;
            self.guess_pending.d.next = false;
            self.after_guess.d.next = false;
            self.scan_row.d.next = 0.into();
            self.nodes_q.d.next = 0.into();
            self.backtracks_q.d.next = 0.into();
            self.state.d.next = State::Clear;
        }
        if self.abort.val() {
            self.state.d.next = State::Idle;
            // No verdict for the abandoned board, even one decided this cycle.
            self.done_q.d.next = false;
            self.board.write.next = false;
            self.start_line.d.next = false;
            self.marking.d.next = false;
            self.forgetting.d.next = false;
            self.scan_load.d.next = false;
            self.guess_load.d.next = false;
        }

        // The read flags, from the next state (see `BoardMemory`). Where a
        // state has one way in, from the state before and its condition:
        // decoded from `state.d`, the whole next-state logic lay in front
        // of these flags (the trail's fit through Check's decision into
        // `reading_value` was the worst path, 85 MHz, of a nextpnr seed in
        // a trial build). `look_save` and the `fresh_any` term restate the
        // Look and crossing steps' conditions: keep them in step.
        self.keeps_state.next = !self.start.val() & !self.abort.val();
        self.look_fetch.next =
            (self.state.q.val() == State::Look) & self.order.any_dirty.val() & self.order.line_dirty.val();
        self.look_save.next = (self.state.q.val() == State::Look)
            & !self.order.any_dirty.val()
            & self.board_known.q.val()
            & self.searching.q.val()
            & !self.first_only_q.q.val()
            & !self.solution_kept.q.val();
        self.next_save_read.next = self.look_save.val()
            | ((self.state.q.val() == State::Search)
                & (self.search_step.q.val() == SearchStep::SaveWrite)
                & !self.save_last.q.val());
        self.board.read_reply.next = self.state.d.val() == State::Done;
        self.board.read_line.next =
            (self.look_fetch.val() | (self.state.q.val() == State::Fetch)) & self.keeps_state.val();
        self.board.read_cross.next = ((((self.state.q.val() == State::WriteValue)
            | (self.state.q.val() == State::CrossValue))
            & self.fresh_any.q.val())
            | (self.state.q.val() == State::CrossRead))
            & self.keeps_state.val();
        self.board.read_scan.next =
            (self.state.d.val() == State::Search) & (self.search_step.d.val() == SearchStep::ScanRead);
        self.board.read_guess.next = (self.state.d.val() == State::Search)
            & ((self.search_step.d.val() == SearchStep::GuessFetch)
                | (self.search_step.d.val() == SearchStep::GuessLoad));
        self.board.read_save.next = self.next_save_read.val() & self.keeps_state.val();
        self.board.read_undo_row.next =
            (self.state.d.val() == State::Search) & (self.search_step.d.val() == SearchStep::UndoRow);
        self.board.read_undo_column.next = (self.state.q.val() == State::Search)
            & (self.search_step.q.val() == SearchStep::UndoRow)
            & self.keeps_state.val();
        self.board.read_value_copy.next = ((self.state.q.val() == State::Fetch)
            | (self.state.q.val() == State::CrossRead)
            | ((self.state.q.val() == State::Search) & (self.search_step.q.val() == SearchStep::GuessFetch))
            | self.next_save_read.val())
            & self.keeps_state.val();
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod verilog;
