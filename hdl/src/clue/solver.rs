//! The clue engine: solves a board of up to 64×64 from its clues, visiting
//! the dirty lines in the order of `clue_model.rs` (rows, then columns, again
//! and again; a line is dirty until visited, and again when a visit of a
//! crossing line fixes one of its cells) with the complete line solver of
//! `line_solver.rs`.
//!
//! # Board memory
//!
//! Known and Value live in one block RAM of 256 words of 64 bits, twice: a
//! row-major copy (word = a row, bit = a column) and a column-major copy, so
//! that any line is two reads. After a visit, the line's two words are written
//! back, and each cell the visit newly fixed is written into the other copy
//! (read, set one bit, write: 3 cycles a cell; at most m·n over a solve).
//!
//! | address bits | 7 | 6 | 5..0 |
//! |---|---|---|---|
//! | | 0 rows, 1 columns | 0 Known, 1 Value | row or column |
//!
//! Value bits are only meaningful where Known is set, so a new board clears
//! the 128 Known words and nothing else.
//!
//! # Clues
//!
//! The loader writes every block length into the clue store (2 048 blocks),
//! and for each line its first block's address and its block count into the
//! line table.
//!
//! # A visit, cycle by cycle
//!
//! seek and look (the line is dirty) · fetch (line table and Known asked) · load
//! (Value asked; the line is clean now) · start · the line solver (k + 2L +
//! 6, its result taken in its last cycle) · write Known · write Value · 3 per
//! newly fixed cell (which dirty the crossing lines) · advance: k + 2L + 14
//! cycles plus 3 per newly fixed cell, after 128 to clear the board, and two
//! cycles for each clean line passed over and for the last look
//! (`clue_model.rs` counts the same). The solve ends on a line with no fill (CONTRADICTION) or when no
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

use crate::clue::clue_model::{BUDGET_UNIT_BITS, SEARCHED, TRAIL_ENTRIES};
use crate::clue::line_solver::LineSolver;
use crate::common::block_ram::BlockRam;
use crate::common::params::CYCLE_BITS;
use crate::constant;
use crate::link::protocol::status::outcome;
use rust_hdl::prelude::*;

/// Blocks the clue store holds (for all lines of a board together).
pub const CLUE_STORE_BITS: usize = 11;

/// Address bits of the undo trail (`clue_model::TRAIL_ENTRIES` entries).
pub const TRAIL_BITS: usize = 11;
const _: () = assert!(1 << TRAIL_BITS == TRAIL_ENTRIES);
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
    board: BlockRam<Bits<64>, 8>,
    line_table: BlockRam<Bits<17>, 7>,
    clues: BlockRam<Bits<7>, CLUE_STORE_BITS>,
    // The undo trail: every cell fixed since the first guess, in the order
    // fixed. Bits 11..6 row, 5..0 column; bit 12 marks a guess, bit 13 is
    // its value, bit 14 says it is the cell's second value.
    trail: BlockRam<Bits<16>, TRAIL_BITS>,
    // The first solution's Value rows.
    solution: BlockRam<Bits<64>, 6>,
    state: DFF<State>,
    search_step: DFF<SearchStep>,
    // The board memory's read address: which the next cycle reads (see
    // the address).
    reading_done: DFF<Bit>,
    reading_line: DFF<Bit>,
    reading_cross: DFF<Bit>,
    reading_scan: DFF<Bit>,
    reading_guess: DFF<Bit>,
    reading_save: DFF<Bit>,
    reading_undo_row: DFF<Bit>,
    reading_undo_column: DFF<Bit>,
    // The Value copy (Load, CrossKnown, GuessLoad, SaveRead).
    reading_value: DFF<Bit>,
    read_line_number: Signal<Local, Bits<6>>,
    // The board memory's write port, a cycle ahead (see its update).
    board_write: DFF<Bit>,
    board_write_address: DFF<Bits<8>>,
    board_write_data: DFF<Bits<64>>,
    rows_q: DFF<Bits<7>>,
    columns_q: DFF<Bits<7>>,
    last_line: DFF<Bits<8>>,
    cells: DFF<Bits<13>>,
    counter: DFF<Bits<8>>,
    line: DFF<Bits<8>>,
    is_column: DFF<Bit>,
    index: DFF<Bits<6>>,
    length: DFF<Bits<7>>,
    first_block: DFF<Bits<CLUE_STORE_BITS>>,
    line_known: DFF<Bits<64>>,
    new_known: DFF<Bits<64>>,
    new_value: DFF<Bits<64>>,
    fresh: DFF<Bits<64>>,
    line_bit: DFF<Bits<64>>,
    // The bit `line_bit` has a cycle later: the line's number for a visit
    // (set in Look), the guessed column then row for a guess, the column
    // then row of each cell undone.
    bit_number: DFF<Bits<6>>,
    known_cells: DFF<Bits<13>>,
    // The lines a visit could still change (bit = row or column number).
    dirty_rows: DFF<Bits<64>>,
    dirty_columns: DFF<Bits<64>>,
    // Pulses for the dirty bits (see their update): Clear's first 64
    // cycles, Load, CrossRead.
    filling: DFF<Bit>,
    cleaning: DFF<Bit>,
    crossing: DFF<Bit>,
    // The line is the last row, the last line (see the line's advance).
    last_row: DFF<Bit>,
    last_of_all: DFF<Bit>,
    // The dirty bit of the line at `index`, a cycle late (see Seek).
    line_dirty: DFF<Bit>,
    // Whether any line is dirty, and whether every cell is known: registered,
    // so that the wide OR and the compare are off the path into `outcome_q`
    // (with such compares there the clue bitstream missed 100 MHz on two
    // nextpnr seeds of five). Seek reads them a cycle late, which is exact:
    // Advance, between the last change and Seek, changes neither.
    any_dirty: DFF<Bit>,
    board_known: DFF<Bit>,
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
    // count is past the budget; the unknown cells fit the trail; the trail
    // is empty; `save_row` is the last row.
    over_budget: DFF<Bit>,
    trail_fits: DFF<Bit>,
    trail_empty: DFF<Bit>,
    save_last: DFF<Bit>,
    trail_top: DFF<Bits<12>>,
    searching: DFF<Bit>,
    // The Check's event is a backtrack (else a choice); giving up.
    backtracking: DFF<Bit>,
    giving_up: DFF<Bit>,
    // The first solution is in `solution`; the answer is read from there.
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
    // Pulses for the dirty bits: the guess's row is dirty; a backtrack
    // forgets every dirty bit.
    marking: DFF<Bit>,
    forgetting: DFF<Bit>,
    scan_row: DFF<Bits<6>>,
    save_row: DFF<Bits<6>>,
    column_mask: DFF<Bits<64>>,
    undo_row: DFF<Bits<6>>,
    undo_column: DFF<Bits<6>>,
    undo_guess: DFF<Bit>,
    undo_value: DFF<Bit>,
    undo_second: DFF<Bit>,
    nodes_q: DFF<Bits<32>>,
    backtracks_q: DFF<Bits<32>>,
    count_node: DFF<Bit>,
    // High in the cycle of a write (see the written word).
    word_known: DFF<Bit>,
    word_value: DFF<Bit>,
    cross_known: DFF<Bit>,
    cross_value: DFF<Bit>,
    undo_second_write: DFF<Bit>,
    count_backtrack: DFF<Bit>,
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
    latch_entry: Signal<Local, Bit>,
    cell_fixed: DFF<Bit>,
    cell_undone: DFF<Bit>,
    undo_reguess: DFF<Bit>,
    undo_last: DFF<Bit>,
    undo_outcome: DFF<Bits<3>>,
    undo_keeps: DFF<Bit>,
    unknown_cells: Signal<Local, Bits<13>>,
    // Newly fixed cells are copied lowest first. The lowest is found in two
    // registered steps (a 64-bit x & −x does not fit a 10 ns cycle): in
    // each byte of `fresh`, which bit is lowest, and which byte is the
    // lowest with a bit (one-hot); then the lowest byte's lowest bit, as a
    // number (`copied_cell`) and as a bit (`copied_bit`).
    lowest_byte: DFF<Bits<8>>,
    byte_lowest: [DFF<Bits<3>>; 8],
    copied_cell: DFF<Bits<6>>,
    // `copied_cell`'s bit, registered with it in WriteValue and CrossValue
    // (where the crossing is decided) for CrossRead's updates of `fresh` and
    // of the dirty bits: decoding `copied_cell` there missed 100 MHz on a
    // nextpnr seed. (Loaded every cycle: only CrossRead reads it.)
    copied_bit: DFF<Bits<64>>,
    // The copied cell's value, in two registered steps from CrossRead on
    // (each byte of `new_value` at `copied_bit`, then any), for
    // CrossValue: a 64-way multiplexer in CrossRead missed 100 MHz on
    // nextpnr seeds. (Loaded every cycle: only CrossValue reads it.)
    byte_hit: DFF<Bits<8>>,
    copied_value: DFF<Bit>,
    byte_isolated: [Signal<Local, Bits<8>>; 8],
    byte_code: [Signal<Local, Bits<3>>; 8],
    byte_bit: [Signal<Local, Bits<8>>; 8],
    byte_any_next: Signal<Local, Bits<8>>,
    byte_hit_next: Signal<Local, Bits<8>>,
    low_bits: Signal<Local, Bits<3>>,
    lowest_cell: Signal<Local, Bits<6>>,
    lowest_bit: Signal<Local, Bits<64>>,
    solved_known: Signal<Local, Bits<64>>,
    // Look and Advance: go on to the next line.
    next_line: Signal<Local, Bit>,
    // Clear: counter + m ≥ 64 (counter + n ≥ 64).
    row_fill: Signal<Local, Bit>,
    column_fill: Signal<Local, Bit>,
    row_fill_sum: Signal<Local, Bits<8>>,
    column_fill_sum: Signal<Local, Bits<8>>,
    solved_value: Signal<Local, Bits<64>>,
    one: Constant<Bits<64>>,
    one_byte: Constant<Bits<8>>,
    bit_masks: [Constant<Bits<8>>; 3],
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
        // bit_masks[j]: the bits of a byte whose number has bit j set.
        let mask = |j: usize| {
            (0..8u64)
                .filter(|i| i >> j & 1 == 1)
                .fold(0u64, |m, i| m | 1 << i)
        };
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
            board: Default::default(),
            line_table: Default::default(),
            clues: Default::default(),
            trail: Default::default(),
            solution: Default::default(),
            state: Default::default(),
            search_step: Default::default(),
            reading_done: Default::default(),
            reading_line: Default::default(),
            reading_cross: Default::default(),
            reading_scan: Default::default(),
            reading_guess: Default::default(),
            reading_save: Default::default(),
            reading_undo_row: Default::default(),
            reading_undo_column: Default::default(),
            reading_value: Default::default(),
            read_line_number: Default::default(),
            board_write: Default::default(),
            board_write_address: Default::default(),
            board_write_data: Default::default(),
            rows_q: Default::default(),
            columns_q: Default::default(),
            last_line: Default::default(),
            cells: Default::default(),
            counter: Default::default(),
            line: Default::default(),
            is_column: Default::default(),
            index: Default::default(),
            length: Default::default(),
            first_block: Default::default(),
            line_known: Default::default(),
            new_known: Default::default(),
            new_value: Default::default(),
            fresh: Default::default(),
            line_bit: Default::default(),
            bit_number: Default::default(),
            dirty_rows: Default::default(),
            dirty_columns: Default::default(),
            line_dirty: Default::default(),
            last_row: Default::default(),
            last_of_all: Default::default(),
            filling: Default::default(),
            cleaning: Default::default(),
            crossing: Default::default(),
            any_dirty: Default::default(),
            board_known: Default::default(),
            start_line: Default::default(),
            known_cells: Default::default(),
            outcome_q: Default::default(),
            cycles_q: Default::default(),
            passes_q: Default::default(),
            done_q: Default::default(),
            budget_q: Default::default(),
            no_search: Default::default(),
            over_budget: Default::default(),
            trail_fits: Default::default(),
            trail_empty: Default::default(),
            save_last: Default::default(),
            trail_top: Default::default(),
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
            marking: Default::default(),
            forgetting: Default::default(),
            scan_row: Default::default(),
            save_row: Default::default(),
            column_mask: Default::default(),
            undo_row: Default::default(),
            undo_column: Default::default(),
            undo_guess: Default::default(),
            undo_value: Default::default(),
            undo_second: Default::default(),
            nodes_q: Default::default(),
            backtracks_q: Default::default(),
            count_node: Default::default(),
            word_known: Default::default(),
            word_value: Default::default(),
            cross_known: Default::default(),
            cross_value: Default::default(),
            undo_second_write: Default::default(),
            scan_load: Default::default(),
            guess_load: Default::default(),
            to_guess: Default::default(),
            fresh_any: Default::default(),
            at_line_zero: Default::default(),
            passes_full: Default::default(),
            latch_entry: Default::default(),
            count_backtrack: Default::default(),
            cell_fixed: Default::default(),
            cell_undone: Default::default(),
            undo_reguess: Default::default(),
            undo_last: Default::default(),
            undo_outcome: Default::default(),
            undo_keeps: Default::default(),
            unknown_cells: Default::default(),
            lowest_byte: Default::default(),
            byte_lowest: Default::default(),
            copied_cell: Default::default(),
            copied_bit: Default::default(),
            byte_hit: Default::default(),
            copied_value: Default::default(),
            byte_isolated: Default::default(),
            byte_code: Default::default(),
            byte_bit: Default::default(),
            byte_any_next: Default::default(),
            byte_hit_next: Default::default(),
            low_bits: Default::default(),
            lowest_cell: Default::default(),
            lowest_bit: Default::default(),
            solved_known: Default::default(),
            next_line: Default::default(),
            row_fill: Default::default(),
            column_fill: Default::default(),
            row_fill_sum: Default::default(),
            column_fill_sum: Default::default(),
            solved_value: Default::default(),
            one: constant(1u64),
            one_byte: constant(1u64),
            bit_masks: array_init::array_init(|j| constant(mask(j))),
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
            reading_done,
            reading_line,
            reading_cross,
            reading_scan,
            reading_guess,
            reading_save,
            reading_undo_row,
            reading_undo_column,
            reading_value,
            board_write,
            board_write_address,
            board_write_data,
            rows_q,
            columns_q,
            last_line,
            cells,
            counter,
            line,
            is_column,
            index,
            length,
            first_block,
            line_known,
            new_known,
            new_value,
            fresh,
            line_bit,
            lowest_byte,
            copied_cell,
            copied_bit,
            byte_hit,
            copied_value,
            dirty_rows,
            dirty_columns,
            line_dirty,
            last_row,
            last_of_all,
            filling,
            cleaning,
            crossing,
            any_dirty,
            board_known,
            start_line,
            known_cells,
            outcome_q,
            cycles_q,
            passes_q,
            done_q,
            budget_q,
            no_search,
            over_budget,
            trail_fits,
            trail_empty,
            save_last,
            trail_top,
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
            marking,
            forgetting,
            scan_row,
            save_row,
            column_mask,
            undo_row,
            undo_column,
            undo_guess,
            undo_value,
            undo_second,
            nodes_q,
            backtracks_q,
            count_node,
            word_known,
            word_value,
            cross_known,
            cross_value,
            undo_second_write,
            count_backtrack,
            scan_load,
            guess_load,
            to_guess,
            fresh_any,
            at_line_zero,
            passes_full,
            cell_fixed,
            cell_undone,
            undo_reguess,
            undo_last,
            undo_outcome,
            undo_keeps,
            bit_number
        );
        self.line_solver.clock.next = self.clock.val();
        self.board.clock.next = self.clock.val();
        self.line_table.clock.next = self.clock.val();
        self.clues.clock.next = self.clock.val();
        self.trail.clock.next = self.clock.val();
        self.solution.clock.next = self.clock.val();
        // The loader writes the clue store and the line table only while no
        // board is being solved; a visit reads them from Load to Solve.
        self.line_table.read_used.next = (self.state.q.val() == State::Load)
            | (self.state.q.val() == State::Start)
            | (self.state.q.val() == State::Solve);
        self.clues.read_used.next =
            (self.state.q.val() == State::Start) | (self.state.q.val() == State::Solve);

        // The loader fills the clue store and the line table.
        self.clues.write_enable.next = self.clue_write.val();
        self.clues.write_address.next = self.clue_address.val();
        self.clues.write_data.next = self.clue_length.val();
        self.line_table.write_enable.next = self.line_write.val();
        self.line_table.write_address.next = self.line_number.val();
        self.line_table.write_data.next = (bit_cast::<17, 6>(self.line_blocks.val()) << 11)
            | bit_cast::<17, CLUE_STORE_BITS>(self.line_first.val());
        self.line_table.read_address.next = bit_cast::<7, 8>(self.line.q.val());

        // The line solver reads its clue from the store.
        self.clues.read_address.next =
            self.first_block.q.val() + bit_cast::<CLUE_STORE_BITS, 5>(self.line_solver.clue_address.val());
        self.line_solver.clue_length.next = self.clues.read_data.val();
        self.line_solver.start.next = self.start_line.q.val();
        self.start_line.d.next = false;
        self.line_solver.length.next = self.length.q.val();
        self.line_solver.blocks.next = self.line_table.read_data.val().get_bits::<6>(11);
        self.line_solver.known.next = self.line_known.q.val();
        self.line_solver.value.next = self.board.read_data.val();

        // The lowest newly fixed cell, in two steps (see `byte_any`). Step 1,
        // each byte of `fresh`: its lowest bit isolated (x & −x), numbered.
        for g in 0..8 {
            self.byte_lowest[g].clock.next = self.clock.val();
            self.byte_isolated[g].next =
                self.fresh.q.val().get_bits::<8>(8 * g) & (!self.fresh.q.val().get_bits::<8>(8 * g) + 1);
            self.byte_code[g].next = 0.into();
            for j in 0..3 {
                self.byte_code[g].next = self.byte_code[g]
                    .val()
                    .replace_bit(j, (self.byte_isolated[g].val() & self.bit_masks[j].val()).any());
            }
            self.byte_lowest[g].d.next = self.byte_code[g].val();
        }
        self.byte_any_next.next = 0.into();
        for g in 0..8 {
            self.byte_any_next.next = self
                .byte_any_next
                .val()
                .replace_bit(g, self.fresh.q.val().get_bits::<8>(8 * g).any());
        }
        // The lowest byte with a bit, one-hot (x & −x of the bytes' ORs).
        self.lowest_byte.d.next = self.byte_any_next.val() & (!self.byte_any_next.val() + 1);
        // Step 2: the lowest byte's lowest bit, numbered and as a bit.
        self.low_bits.next = 0.into();
        for g in 0..8 {
            if self.lowest_byte.q.val().get_bit(g) {
                self.low_bits.next = self.low_bits.val() | self.byte_lowest[g].q.val();
            }
        }
        self.lowest_cell.next = bit_cast::<6, 3>(self.low_bits.val());
        for j in 0..3 {
            self.lowest_cell.next = self
                .lowest_cell
                .val()
                .replace_bit(j + 3, (self.lowest_byte.q.val() & self.bit_masks[j].val()).any());
        }
        self.lowest_bit.next = 0.into();
        for g in 0..8 {
            self.byte_bit[g].next = self.one_byte.val() << self.byte_lowest[g].q.val();
            for i in 0..8 {
                self.lowest_bit.next = self.lowest_bit.val().replace_bit(
                    8 * g + i,
                    self.lowest_byte.q.val().get_bit(g) & self.byte_bit[g].val().get_bit(i),
                );
            }
        }
        self.copied_bit.d.next = self.lowest_bit.val();
        // The copied cell's value (see `byte_hit`).
        self.byte_hit_next.next = 0.into();
        for g in 0..8 {
            self.byte_hit_next.next = self.byte_hit_next.val().replace_bit(
                g,
                (self.new_value.q.val().get_bits::<8>(8 * g) & self.copied_bit.q.val().get_bits::<8>(8 * g))
                    .any(),
            );
        }
        self.byte_hit.d.next = self.byte_hit_next.val();
        self.copied_value.d.next = self.byte_hit.q.val().any();
        self.solved_known.next = self.line_solver.can_fill.val() ^ self.line_solver.can_empty.val();
        self.solved_value.next = self.line_solver.can_fill.val() & !self.line_solver.can_empty.val();

        // The board memory's read address, chosen by flags that are high in
        // the cycle of the read (set from the next state: decoded from
        // `state` and `search_step`, this multiplexer made the critical path
        // into the block RAM on nextpnr seeds). Fetch and Load read the
        // line, CrossRead and CrossKnown the crossing line, the search its
        // rows and columns; Done the reply's rows: a kept answer's rows come
        // from the solution memory, and its DIFFERS words are those rows XOR
        // the board's Value rows.
        self.read_line_number.next = 0.into();
        if self.reading_done.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.read_row.val();
        }
        if self.reading_line.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.index.q.val();
        }
        if self.reading_cross.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.copied_cell.q.val();
        }
        if self.reading_scan.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.scan_row.q.val();
        }
        if self.reading_guess.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.guess_row.q.val();
        }
        if self.reading_save.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.save_row.q.val();
        }
        if self.reading_undo_row.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.undo_row.q.val();
        }
        if self.reading_undo_column.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.undo_column.q.val();
        }
        self.board.read_address.next = bit_cast::<8, 6>(self.read_line_number.val())
            | (bit_cast::<8, 1>(
                (self.reading_value.q.val()
                    | (self.reading_done.q.val() & (self.read_value.val() | self.answer_kept.q.val())))
                .into(),
            ) << 6)
            | (bit_cast::<8, 1>(
                ((self.reading_line.q.val() & self.is_column.q.val())
                    | (self.reading_cross.q.val() & !self.is_column.q.val())
                    | self.reading_undo_column.q.val())
                .into(),
            ) << 7);
        self.solution.read_address.next = self.read_row.val();
        self.solution.read_used.next = self.state.q.val() == State::Done;
        self.solution.write_enable.next = false;
        self.solution.write_address.next = self.save_row.q.val();
        self.solution.write_data.next = self.board.read_data.val();
        // The trail: pushed at `trail_top`; the entry below the top is
        // always on the read port (undoing pops it).
        self.trail.read_address.next = bit_cast::<TRAIL_BITS, 12>(self.trail_top.q.val() - 1);
        self.trail.read_used.next = (self.state.q.val() == State::Search)
            & ((self.search_step.q.val() == SearchStep::Check)
                | (self.search_step.q.val() == SearchStep::UndoWrite));
        self.trail.write_enable.next = false;
        self.trail.write_address.next = bit_cast::<TRAIL_BITS, 12>(self.trail_top.q.val());
        self.trail.write_data.next = bit_cast::<16, 6>(self.copied_cell.q.val())
            | (bit_cast::<16, 6>(self.index.q.val()) << 6)
            | (bit_cast::<16, 1>(self.guess_pending.q.val().into()) << 12)
            | (bit_cast::<16, 1>(self.guess_value.q.val().into()) << 13)
            | (bit_cast::<16, 1>(self.guess_second.q.val().into()) << 14);
        if self.is_column.q.val() {
            self.trail.write_data.next =
                bit_cast::<16, 6>(self.index.q.val()) | (bit_cast::<16, 6>(self.copied_cell.q.val()) << 6);
        }
        // `line_bit` is one bit, `bit_number`, decoded a cycle late: a
        // register to register decoder (see `bit_number`).
        self.line_bit.d.next = self.one.val() << self.bit_number.q.val();
        self.marking.d.next = false;
        self.forgetting.d.next = false;
        // Counts change on registered pulses, a cycle after their state
        // (their wide enables then come from flip-flops).
        self.count_node.d.next = false;
        self.count_backtrack.d.next = false;
        self.cell_fixed.d.next = false;
        self.cell_undone.d.next = false;
        self.scan_load.d.next = false;
        self.guess_load.d.next = false;
        self.to_guess.d.next = false;
        self.latch_entry.next = false;
        self.fresh_any.d.next = self.fresh.q.val().any();
        self.at_line_zero.d.next = self.line.q.val() == 0;
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
        // Writes go through registers and reach the memory a cycle late:
        // decoded from `state` straight into the block RAM's ports they held
        // the clue bitstream to 88 MHz. No read needs a word in the cycle
        // after it was written (the block RAM's check would catch it).
        self.board.write_enable.next = self.board_write.q.val();
        self.board.write_address.next = self.board_write_address.q.val();
        self.board.write_data.next = self.board_write_data.q.val();
        self.board_write.d.next = false;
        self.board_write_address.d.next = bit_cast::<8, 6>(self.index.q.val());
        // The written word, chosen by pulses that are high in the cycle of
        // the write (decoded from `state` this multiplexer missed 100 MHz):
        // WriteKnown and WriteValue write the visit's words; CrossKnown
        // sets `line_bit` in the other copy, CrossValue sets or clears it;
        // UndoColumn and UndoWrite clear it; Clear writes 0.
        self.word_known.d.next = self.line_solver.done.val() | self.guess_load.q.val();
        self.word_value.d.next = self.word_known.q.val();
        self.cross_known.d.next = self.crossing.q.val();
        self.cross_value.d.next = self.cross_known.q.val();
        self.undo_second_write.d.next = self.cell_undone.q.val();
        self.board_write_data.d.next = 0.into();
        if self.word_known.q.val() {
            self.board_write_data.d.next = self.new_known.q.val();
        }
        if self.word_value.q.val() {
            self.board_write_data.d.next = self.new_value.q.val();
        }
        if self.cross_known.q.val() | (self.cross_value.q.val() & self.copied_value.q.val()) {
            self.board_write_data.d.next = self.board.read_data.val() | self.line_bit.q.val();
        }
        if (self.cross_value.q.val() & !self.copied_value.q.val())
            | self.cell_undone.q.val()
            | self.undo_second_write.q.val()
        {
            self.board_write_data.d.next = self.board.read_data.val() & !self.line_bit.q.val();
        }
        // The reply reads rows once the board is done; a visit's reads are
        // marked in its states below.
        self.board.read_used.next = self.state.q.val() == State::Done;
        self.row_word.next = self.board.read_data.val();
        if self.answer_kept.q.val() {
            self.row_word.next = self.solution.read_data.val();
            if self.read_differs.val() {
                self.row_word.next = self.solution.read_data.val() ^ self.board.read_data.val();
            }
        }
        self.board_cells.next = self.cells.q.val();
        self.all_known.next = (self.known_cells.q.val() == self.cells.q.val()) | self.answer_kept.q.val();
        self.done_q.d.next = false;
        self.next_line.next = false;
        self.cleaning.d.next = false;
        self.crossing.d.next = false;
        self.row_fill_sum.next = (self.counter.q.val() & 63) + bit_cast::<8, 7>(self.rows_q.q.val());
        self.row_fill.next = self.row_fill_sum.val().get_bit(6);
        self.column_fill_sum.next = (self.counter.q.val() & 63) + bit_cast::<8, 7>(self.columns_q.q.val());
        self.column_fill.next = self.column_fill_sum.val().get_bit(6);
        self.line_dirty.d.next = self.dirty_rows.q.val().get_bit(self.index.q.val().index());
        if self.is_column.q.val() {
            self.line_dirty.d.next = self.dirty_columns.q.val().get_bit(self.index.q.val().index());
        }

        match self.state.q.val() {
            State::Idle => {}
            State::Clear => {
                // Known words of both copies: addresses 0..64 and 128..192.
                self.board_write.d.next = true;
                self.board_write_address.d.next =
                    (self.counter.q.val() & 63) | ((self.counter.q.val() & 64) << 1);
                self.counter.d.next = self.counter.q.val() + 1;
                // m·n, as m additions of n (there is no multiplier).
                if self.counter.q.val() < bit_cast::<8, 7>(self.rows_q.q.val()) {
                    self.cells.d.next = self.cells.q.val() + bit_cast::<13, 7>(self.columns_q.q.val());
                }
                if self.counter.q.val() == 63 {
                    self.filling.d.next = false;
                }
                if self.counter.q.val() == 127 {
                    // The dirty columns are bits 0..n now.
                    self.column_mask.d.next = self.dirty_columns.q.val();
                    self.state.d.next = State::Seek;
                }
            }
            State::Seek => {
                self.state.d.next = State::Look;
            }
            State::Look => {
                self.bit_number.d.next = self.index.q.val();
                if self.at_line_zero.q.val() & !self.passes_full.q.val() {
                    self.passes_q.d.next = self.passes_q.q.val() + 1;
                }
                if !self.any_dirty.q.val() {
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
                } else if self.line_dirty.q.val() {
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
                self.first_block.d.next = self.line_table.read_data.val().get_bits::<CLUE_STORE_BITS>(0);
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
                self.board_write.d.next = true;
                self.board_write_address.d.next = bit_cast::<8, 6>(self.index.q.val())
                    | (bit_cast::<8, 1>(self.is_column.q.val().into()) << 7);
                self.state.d.next = State::WriteValue;
            }
            State::WriteValue => {
                self.board_write.d.next = true;
                self.board_write_address.d.next = bit_cast::<8, 6>(self.index.q.val())
                    | (bit_cast::<8, 1>(self.is_column.q.val().into()) << 7)
                    | 64;
                self.copied_cell.d.next = self.lowest_cell.val();
                self.state.d.next = State::Advance;
                if self.fresh_any.q.val() {
                    self.crossing.d.next = true;
                    self.state.d.next = State::CrossRead;
                }
            }
            // Each newly fixed cell into the other copy: read its Known and
            // Value words, set this line's bit in both.
            State::CrossRead => {
                // (The cell's value reaches `copied_value` for CrossValue:
                // see `byte_hit`.)
                self.board.read_used.next = true;
                self.state.d.next = State::CrossKnown;
            }
            State::CrossKnown => {
                self.board.read_used.next = true;
                self.board_write.d.next = true;
                self.board_write_address.d.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.is_column.q.val()).into()) << 7);
                self.state.d.next = State::CrossValue;
            }
            State::CrossValue => {
                self.board_write.d.next = true;
                self.board_write_address.d.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.is_column.q.val()).into()) << 7)
                    | 64;
                self.copied_cell.d.next = self.lowest_cell.val();
                self.cell_fixed.d.next = true;
                // Since the first guess every fixed cell goes on the trail.
                if self.searching.q.val() {
                    self.trail.write_enable.next = true;
                    self.trail_top.d.next = self.trail_top.q.val() + 1;
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
                    self.bit_number.d.next = self.trail.read_data.val().get_bits::<6>(0);
                    self.latch_entry.next = true;
                    if self.over_budget.q.val() | (!self.backtracking.q.val() & !self.trail_fits.q.val()) {
                        self.giving_up.d.next = true;
                        self.trail_full.d.next = !self.over_budget.q.val();
                        self.state.d.next = State::Search;
                        self.search_step.d.next = SearchStep::UndoRow;
                        if self.trail_empty.q.val() {
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
                        self.copied_cell.d.next = self.lowest_cell.val();
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
                    self.solution.write_enable.next = true;
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
                    // (The entry was latched in the step before: see `undo_row`.)
                    self.bit_number.d.next = self.undo_row.q.val();
                    self.board.read_used.next = true;
                    self.trail_top.d.next = self.trail_top.q.val() - 1;
                    self.cell_undone.d.next = true;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::UndoColumn;
                }
                SearchStep::UndoColumn => {
                    self.board_write.d.next = true;
                    self.board_write_address.d.next = bit_cast::<8, 6>(self.undo_row.q.val());
                    // What UndoWrite does, decided here from registers: the
                    // guess's other value; or, with the trail empty, the end
                    // (the kept solution is the only one, or there is none,
                    // or the budget ran out).
                    self.undo_reguess.d.next =
                        !self.giving_up.q.val() & self.undo_guess.q.val() & !self.undo_second.q.val();
                    self.undo_last.d.next = self.trail_top.q.val() == 0;
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
                    self.board_write.d.next = true;
                    self.board_write_address.d.next = bit_cast::<8, 6>(self.undo_column.q.val()) | 128;
                    self.state.d.next = State::Search;
                    self.search_step.d.next = SearchStep::UndoRow;
                    self.bit_number.d.next = self.trail.read_data.val().get_bits::<6>(0);
                    self.latch_entry.next = true;
                    if self.undo_reguess.q.val() {
                        // The guess's other value.
                        self.guess_row.d.next = self.undo_row.q.val();
                        self.copied_cell.d.next = self.undo_column.q.val();
                        self.guess_value.d.next = !self.undo_value.q.val();
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

        // On to the next line in the visit order: rows 0..m, columns 0..n.
        // (Where the line ends its phase is registered: the compares take
        // a cycle, and the line never moves twice in a row: Seek, or a
        // whole visit, lies between.)
        self.last_row.d.next =
            !self.is_column.q.val() & (bit_cast::<7, 6>(self.index.q.val()) + 1 == self.rows_q.q.val());
        self.last_of_all.d.next = self.line.q.val() == self.last_line.q.val();
        if self.next_line.val() {
            self.line.d.next = self.line.q.val() + 1;
            self.index.d.next = self.index.q.val() + 1;
            if self.last_row.q.val() {
                self.is_column.d.next = true;
                self.index.d.next = 0.into();
                self.length.d.next = self.rows_q.q.val();
            }
            if self.last_of_all.q.val() {
                self.line.d.next = 0.into();
                self.is_column.d.next = false;
                self.index.d.next = 0.into();
                self.length.d.next = self.columns_q.q.val();
            }
        }
        // A guess (GuessFetch, where `to_guess` is high): the visit order
        // goes on from the guessed row, and the search has begun. (On a
        // pulse: decoded from the search's step, these enables missed
        // 100 MHz.)
        if self.to_guess.q.val() {
            self.searching.d.next = true;
            self.line.d.next = bit_cast::<8, 6>(self.guess_row.q.val());
            self.index.d.next = self.guess_row.q.val();
            self.is_column.d.next = false;
            self.length.d.next = self.columns_q.q.val();
            self.scan_row.d.next = self.guess_row.q.val();
        }
        // The dirty bits, driven by registered pulses so that their 128
        // enables come straight from flip-flops (decoded from `state` they
        // held the bitstream under 100 MHz). Clear: in its first 64 cycles
        // they shift up, taking in a 1 from cycle 64 − m (64 − n) on, so
        // that bits 0..m (0..n) end up set. Load: the visit cleans its line.
        // CrossRead: the line that crosses the copied cell is dirty now.
        if self.filling.q.val() {
            self.dirty_rows.d.next =
                (self.dirty_rows.q.val() << 1) | bit_cast::<64, 1>(self.row_fill.val().into());
            self.dirty_columns.d.next =
                (self.dirty_columns.q.val() << 1) | bit_cast::<64, 1>(self.column_fill.val().into());
        }
        if self.cleaning.q.val() {
            if self.is_column.q.val() {
                self.dirty_columns.d.next = self.dirty_columns.q.val() & !self.line_bit.q.val();
            } else {
                self.dirty_rows.d.next = self.dirty_rows.q.val() & !self.line_bit.q.val();
            }
        }
        if self.crossing.q.val() {
            if self.is_column.q.val() {
                self.dirty_rows.d.next = self.dirty_rows.q.val() | self.copied_bit.q.val();
            } else {
                self.dirty_columns.d.next = self.dirty_columns.q.val() | self.copied_bit.q.val();
            }
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
            self.fresh.d.next = self.fresh.q.val() & !self.copied_bit.q.val();
        }
        if self.scan_load.q.val() {
            self.fresh.d.next = !self.board.read_data.val() & self.column_mask.q.val();
        }
        if self.guess_load.q.val() {
            self.new_known.d.next = self.line_known.q.val() | self.line_bit.q.val();
            self.new_value.d.next = self.board.read_data.val() & !self.line_bit.q.val();
            if self.guess_value.q.val() {
                self.new_value.d.next = self.board.read_data.val() | self.line_bit.q.val();
            }
            self.fresh.d.next = self.line_bit.q.val();
        }
        // The trail's top entry, latched for UndoRow in the step before it
        // (Check, UndoWrite), where it is on the read port already: used
        // straight from the port it missed 100 MHz.
        if self.latch_entry.val() {
            self.undo_row.d.next = self.trail.read_data.val().get_bits::<6>(6);
            self.undo_column.d.next = self.trail.read_data.val().get_bits::<6>(0);
            self.undo_guess.d.next = self.trail.read_data.val().get_bit(12);
            self.undo_value.d.next = self.trail.read_data.val().get_bit(13);
            self.undo_second.d.next = self.trail.read_data.val().get_bit(14);
        }
        if self.marking.q.val() {
            self.dirty_rows.d.next = self.dirty_rows.q.val() | self.line_bit.q.val();
        }
        if self.forgetting.q.val() {
            self.dirty_rows.d.next = 0.into();
            self.dirty_columns.d.next = 0.into();
        }
        self.any_dirty.d.next = (self.dirty_rows.q.val() | self.dirty_columns.q.val()).any();
        // The search's compares, registered (see their fields).
        self.over_budget.d.next =
            !self.no_search.q.val() & (self.cycles_q.q.val().get_bits::<12>(20) >= self.budget_q.q.val());
        self.unknown_cells.next = self.cells.q.val() - self.known_cells.q.val();
        self.trail_fits.d.next = self.unknown_cells.val() <= self.trail_entries.val();
        self.trail_empty.d.next = self.trail_top.q.val() == 0;
        self.save_last.d.next = bit_cast::<7, 6>(self.save_row.q.val()) + 1 == self.rows_q.q.val();
        self.board_known.d.next = self.known_cells.q.val() == self.cells.q.val();

        self.busy.next = (self.state.q.val() != State::Idle) & (self.state.q.val() != State::Done);
        if self.busy.val() {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
        }
        self.done.next = self.done_q.q.val();
        self.outcome.next = self.outcome_q.q.val();
        self.detail.next = 0.into();
        if self.outcome_q.q.val() == self.contradiction.val() {
            self.detail.next = self.line.q.val();
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
            self.rows_q.d.next = self.rows.val();
            self.columns_q.d.next = self.columns.val();
            self.last_line.d.next =
                bit_cast::<8, 7>(self.rows.val()) + bit_cast::<8, 7>(self.columns.val()) - 1;
            self.cells.d.next = 0.into();
            self.counter.d.next = 0.into();
            self.line.d.next = 0.into();
            self.is_column.d.next = false;
            self.index.d.next = 0.into();
            self.length.d.next = self.columns.val();
            self.dirty_rows.d.next = 0.into();
            self.dirty_columns.d.next = 0.into();
            self.filling.d.next = true;
            self.known_cells.d.next = 0.into();
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 0.into();
            self.budget_q.d.next = self.budget.val();
            self.no_search.d.next = self.budget.val() == 0;
            self.trail_top.d.next = 0.into();
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
            self.board_write.d.next = false;
            self.filling.d.next = false;
            self.start_line.d.next = false;
            self.marking.d.next = false;
            self.forgetting.d.next = false;
            self.scan_load.d.next = false;
            self.guess_load.d.next = false;
        }

        // The read address's flags, from the next state (see the address).
        self.reading_done.d.next = self.state.d.val() == State::Done;
        self.reading_line.d.next = (self.state.d.val() == State::Fetch) | (self.state.d.val() == State::Load);
        self.reading_cross.d.next =
            (self.state.d.val() == State::CrossRead) | (self.state.d.val() == State::CrossKnown);
        self.reading_scan.d.next =
            (self.state.d.val() == State::Search) & (self.search_step.d.val() == SearchStep::ScanRead);
        self.reading_guess.d.next = (self.state.d.val() == State::Search)
            & ((self.search_step.d.val() == SearchStep::GuessFetch)
                | (self.search_step.d.val() == SearchStep::GuessLoad));
        self.reading_save.d.next =
            (self.state.d.val() == State::Search) & (self.search_step.d.val() == SearchStep::SaveRead);
        self.reading_undo_row.d.next =
            (self.state.d.val() == State::Search) & (self.search_step.d.val() == SearchStep::UndoRow);
        self.reading_undo_column.d.next =
            (self.state.d.val() == State::Search) & (self.search_step.d.val() == SearchStep::UndoColumn);
        self.reading_value.d.next = (self.state.d.val() == State::Load)
            | (self.state.d.val() == State::CrossKnown)
            | ((self.state.d.val() == State::Search)
                & ((self.search_step.d.val() == SearchStep::GuessLoad)
                    | (self.search_step.d.val() == SearchStep::SaveRead)));
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod verilog;
