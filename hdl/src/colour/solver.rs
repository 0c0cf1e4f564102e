//! The colour engine's solver (issue 28): a board of up to 32×32 cells,
//! each holding the colours it may still have, narrowed by the colour line
//! solver one dirty line at a time until no line is dirty or a line has no
//! fill. `colour::model` is the same engine in plain Rust, cycle for cycle.
//!
//! It is the clue engine's visit (`clue::solver`) with cells of five colour
//! planes, and its parts where they serve unchanged: the [`ClueStore`]
//! (a block is its length and, above it, its ink), the [`VisitOrder`] and
//! the [`Tally`] (cycles, passes, m·n) and the search's [`SearchCounts`] (nodes, backtracks, the budget). Its own parts:
//!
//! * the board: one block RAM of 160-bit line words (ten SB_RAM40_4Ks):
//!   rows 0..32 at 0..32, columns at 32..64, so a line is one read;
//! * [`ColourLineCells`]: the visited line's cells, which of them the line
//!   solver narrowed, and the crossing word with each one written in.
//!
//! * [`CellWriter`]: one cell written into a line word (a narrowed cell
//!   into its crossing line, a branch or an undone cell into its row and
//!   column);
//! * [`ColourTrail`]: the search's undo trail.
//!
//! # Cycle by cycle
//!
//! * a new board: 128 cycles of Clear (the 64 line words written with
//!   every colour the board has, the dirty bits and m·n meanwhile);
//! * each line looked at: Seek and Look, 2 cycles; the last Look, with no
//!   line dirty, ends line logic;
//! * a dirty line: Fetch (its word and its clue's table entry asked) ·
//!   Load (the word arrives; the line solver starts) · the line solver,
//!   k + 2L + `LATENCY` cycles from its start, its result written in its
//!   last · Narrowed (the narrowed cells known) · 3 for each narrowed cell
//!   (CrossRead the crossing line, CrossWord its word arrives and the cell
//!   goes in, CrossWrite; on the trail when searching) · Advance.
//!
//! Line logic ends SOLVED when every cell has one colour (the board's
//! freedom, Σ (colours − 1) over the cells, kept as a count, is 0), STALLED
//! when some has more, and CONTRADICTION, with the line, at a line with no
//! fill.
//!
//! # Search
//!
//! With a budget, what line logic leaves goes to the search (the model is
//! `colour::model`; its header has the rules, these are the steps):
//! * Check (1): past the budget, or before a branch the freedom more than
//!   the trail holds: give up. A backtrack forgets the dirty lines;
//! * a first branch: ScanRead · ScanLoad · ScanAny for each row scanned,
//!   then ScanCell (its lowest cell with more than one colour) ·
//!   BranchColours (its lowest ink);
//! * a cell update, for a branch or an undo: UpRow (its row asked) ·
//!   UpRowWord (the cell written in) · UpColumn (the row written, the
//!   column asked; a branch goes on the trail) · UpColumnWord · UpEnd; a
//!   branch's row and column are dirty then, and line logic goes on from
//!   its row;
//! * an undo: UndoRead (the trail's top popped) and the cell update; a
//!   first branch undone takes its second branch (the cell's other
//!   colours) at once. UndoRead on an empty trail ends the search;
//! * a first solution, when uniqueness is asked: SaveRead · SaveWrite a
//!   row, into the kept rows at 64..96, then a backtrack.

use crate::clue::clue_store::{ClueStore, CLUE_STORE_BITS};
use crate::clue::search::counts::SearchCounts;
use crate::clue::tally::Tally;
use crate::clue::visit_order::VisitOrder;
use crate::colour::cell_writer::CellWriter;
use crate::colour::line_cells::ColourLineCells;
use crate::colour::line_solver::{ColourLineSolver, COLOURS, PLANE_BITS};
use crate::colour::trail::ColourTrail;
use crate::common::params::CYCLE_BITS;
use crate::common::ram::Ram;
use crate::common::thermometer::Thermometer;
use rust_hdl::prelude::*;

/// Bits of a block in the clue store: the length (7), then the ink (3).
pub const BLOCK_BITS: usize = 10;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum State {
    Idle,
    Clear,
    Seek,
    Look,
    Fetch,
    Load,
    Solve,
    Narrowed,
    CrossRead,
    CrossWord,
    CrossWrite,
    Advance,
    Check,
    ScanRead,
    ScanLoad,
    ScanAny,
    ScanCell,
    BranchColours,
    UpRow,
    UpRowWord,
    UpColumn,
    UpColumnWord,
    UpEnd,
    UndoRead,
    SaveRead,
    SaveWrite,
    Done,
}

/// What a cell update is for.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Update {
    FirstBranch,
    SecondBranch,
    Undo,
}

/// What a registered write puts in the board, one bit each (`written`):
/// one-hot, so that the 160 bits of the write multiplexer take their
/// selects straight from flip-flops (a decode of an encoded register before
/// that fan-out held the image to 92 MHz). `update()` writes them as
/// literals (RustHDL writes a constant's name into the Verilog).
pub mod written {
    pub const CLEAR_ROW: u64 = 1;
    pub const CLEAR_COLUMN: u64 = 2;
    /// The line solver's line: a visit's result, or at a save the row
    /// read, which the line solver keeps (as it keeps a scanned row).
    pub const LINE: u64 = 4;
    /// A cell: the cell writer's colours, the block RAM's mask keeping
    /// every other cell.
    pub const CELL: u64 = 8;
}

#[derive(LogicBlock, Default)]
pub struct ColourSolver {
    pub clock: Signal<In, Clock>,
    /// Stop whatever is going on.
    pub abort: Signal<In, Bit>,
    /// Pulse: the clues of a `rows` × `columns` board with `inks` inks are
    /// loaded; solve it.
    pub start: Signal<In, Bit>,
    pub rows: Signal<In, Bits<7>>,
    pub columns: Signal<In, Bits<7>>,
    pub inks: Signal<In, Bits<3>>,
    /// The loader's write ports: one block (length and ink), and one
    /// line's table entry.
    pub clue_write: Signal<In, Bit>,
    pub clue_address: Signal<In, Bits<CLUE_STORE_BITS>>,
    pub clue_length: Signal<In, Bits<7>>,
    pub clue_ink: Signal<In, Bits<3>>,
    pub line_write: Signal<In, Bit>,
    pub line_number: Signal<In, Bits<7>>,
    pub line_first: Signal<In, Bits<CLUE_STORE_BITS>>,
    pub line_blocks: Signal<In, Bits<6>>,
    /// With `start`: the search budget in units of 2^20 cycles; 0 is line
    /// logic alone (STALLED where it stalls).
    pub budget: Signal<In, Bits<12>>,
    /// With `start`: stop at the first solution (SOLVED, FIRST_FOUND).
    pub first_only: Signal<In, Bit>,
    /// After `done`: row `read_row`'s word (its cells' colours as planes)
    /// on `row_word` a cycle later; with `read_kept`, the kept solution's.
    pub read_row: Signal<In, Bits<5>>,
    pub read_kept: Signal<In, Bit>,
    pub row_word: Signal<Out, Bits<PLANE_BITS>>,
    pub busy: Signal<Out, Bit>,
    /// Pulse: the solve has ended with `outcome` and `detail` (as the clue
    /// engine's: the line with no fill, or SEARCHED, for CONTRADICTION;
    /// FIRST_FOUND; why it gave up; else 0).
    pub done: Signal<Out, Bit>,
    pub outcome: Signal<Out, Bits<3>>,
    pub detail: Signal<Out, Bits<8>>,
    pub cycles: Signal<Out, Bits<CYCLE_BITS>>,
    pub passes: Signal<Out, Bits<8>>,
    /// The board's cells (rows × columns), and whether each has one colour.
    pub board_cells: Signal<Out, Bits<13>>,
    pub all_decided: Signal<Out, Bit>,
    /// A first solution is in the kept rows: the answer for SOLVED after a
    /// search, the first solution for SEVERAL (the board is the second).
    pub kept: Signal<Out, Bit>,
    /// Branches taken, and times the search went back.
    pub nodes: Signal<Out, Bits<32>>,
    pub backtracks: Signal<Out, Bits<32>>,
    line_solver: ColourLineSolver,
    store: ClueStore<BLOCK_BITS>,
    board: Ram<PLANE_BITS, 7>,
    order: VisitOrder,
    cells: ColourLineCells,
    writer: CellWriter,
    trail: ColourTrail,
    tally: Tally,
    counts: SearchCounts,
    state: DFF<State>,
    counter: DFF<Bits<8>>,
    inks_q: DFF<Bits<3>>,
    // The colours the board has (background and inks), one bit each.
    planes: DFF<Bits<8>>,
    // A row's cells (bits 0..n) and a column's (bits 0..m).
    row_cells: DFF<Bits<32>>,
    column_cells: DFF<Bits<32>>,
    // The visited line's address, and its bit in the crossing lines.
    line_address: DFF<Bits<7>>,
    line_bit: DFF<Bits<32>>,
    // The updated cell's row and column as bits, and the update's steps
    // (see `visit.rs`), a cycle after the cell and the state.
    row_bit: DFF<Bits<32>>,
    column_bit: DFF<Bits<32>>,
    at_row_word: DFF<Bit>,
    at_column_word: DFF<Bit>,
    at_up_end: DFF<Bit>,
    // In Look, in Advance: the state decoded where the next state is
    // chosen, so that the visit order's step (an enable of its wide
    // registers) is a LUT4 from flip-flops. (Decoded from `state`, it was
    // the image's longest path, at 84 MHz.)
    at_look: DFF<Bit>,
    at_advance: DFF<Bit>,
    // The visit order's other pulses, registered the same way (each was
    // in turn the image's longest path, at 85-90 MHz): in UpColumnWord of
    // a branch (not an undo), go to the branch's row; in Clear; crossing
    // (CrossWord, or UpEnd of a branch); marking (UpEnd of a branch).
    // Forgetting is set in Check and reaches the order a cycle later, in
    // UndoRead, which reads no dirty bit.
    at_branch_word: DFF<Bit>,
    at_clear: DFF<Bit>,
    crossing_q: DFF<Bit>,
    marking_q: DFF<Bit>,
    forgetting_q: DFF<Bit>,
    // In ScanLoad, in SaveWrite, registered the same way: the line
    // solver's `latch` enables its 160 plane flip-flops (decoded from
    // `state`, an 89 MHz path).
    at_scan_load: DFF<Bit>,
    at_save_write: DFF<Bit>,
    // The states that read the board, registered the same way: the read
    // address is an AND-OR of each one's address under its flag (a
    // multiplexer on `state` was a 92.7 MHz path, from the fresh finder's
    // lowest cell through the crossing line's address; then from `state`).
    at_fetch: DFF<Bit>,
    at_cross_read: DFF<Bit>,
    at_scan_read: DFF<Bit>,
    at_up_row: DFF<Bit>,
    at_up_column: DFF<Bit>,
    at_save: DFF<Bit>,
    at_done: DFF<Bit>,
    // The crossing line of the cell being copied, taken every cycle: it
    // is read in CrossWord and CrossWrite, and the lowest fresh cell it
    // comes from holds from CrossRead to CrossWord.
    cross_address: DFF<Bits<7>>,
    // The write, a cycle after it is decided (see `written`).
    write_q: DFF<Bit>,
    write_address: DFF<Bits<7>>,
    written: DFF<Bits<4>>,
    start_line: DFF<Bit>,
    cleaning: DFF<Bit>,
    // Σ (colours − 1) over the cells, and whether it is 0 (registered).
    freedom: DFF<Bits<16>>,
    // A written cell's colours after less before, added a cycle later.
    freedom_change: DFF<Bits<16>>,
    // n·inks, what each row adds to the freedom at the clear.
    row_freedom_q: DFF<Bits<16>>,
    decided: DFF<Bit>,
    first_q: DFF<Bit>,
    // The search has begun; it is going back (or checking a stall); it is
    // giving up; a first solution is kept.
    searching: DFF<Bit>,
    backtracking: DFF<Bit>,
    giving_up: DFF<Bit>,
    kept_q: DFF<Bit>,
    // The freedom is more than the trail holds (registered, for Check).
    too_big: DFF<Bit>,
    scan_row: DFF<Bits<5>>,
    save_row: DFF<Bits<5>>,
    // The cell a branch or an undo writes, and its colours (for an undo,
    // the colours it had); the undone entry's first-branch mark.
    update: DFF<Update>,
    cell_row: DFF<Bits<5>>,
    cell_column: DFF<Bits<5>>,
    cell_colours: DFF<Bits<COLOURS>>,
    // A first branch's colour (the lowest ink of the copied cell, read in
    // BranchColours), registered: it reaches `cell_colours` in UpRow,
    // which only UpRowWord reads (through the line in hand's 32-way
    // multiplexer and the lowest-ink pick, it was an 87 MHz path).
    ink_found_q: DFF<Bits<COLOURS>>,
    undone_first: DFF<Bit>,
    done_q: DFF<Bit>,
    outcome_q: DFF<Bits<3>>,
    detail_q: DFF<Bits<8>>,
    read_address: Signal<Local, Bits<7>>,
    crossing_line: Signal<Local, Bits<7>>,
    // The crossing lines are rows (a column is visited).
    crossing_rows: Signal<Local, Bit>,
    line_word: Signal<Local, Bits<PLANE_BITS>>,
    // The cells a clear or a cell write fills, with which colours, and
    // the word that makes.
    fill_word: Signal<Local, Bits<PLANE_BITS>>,
    fill_cells: Signal<Local, Bits<32>>,
    fill_colours: Signal<Local, Bits<8>>,
    row_freedom: Signal<Local, Bits<16>>,
    row_ones: Thermometer<32>,
    last_row: Signal<Local, Bits<7>>,
    inks_had: Signal<Local, Bits<COLOURS>>,
    second_colours: Signal<Local, Bits<COLOURS>>,
    ink_found: Signal<Local, Bits<COLOURS>>,
    column_ones: Thermometer<32>,
}

mod visit;

#[cfg(test)]
mod tests;
