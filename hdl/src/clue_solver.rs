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

use crate::block_ram::BlockRam;
use crate::constant;
use crate::line_solver::LineSolver;
use crate::params::CYCLE_BITS;
use crate::protocol::status::outcome;
use rust_hdl::prelude::*;

/// Blocks the clue store holds (for all lines of a board together).
pub const CLUE_STORE_BITS: usize = 11;

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
    Done,
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
    /// After `done`: the reply reads row `read_row`'s Known (`read_value` low)
    /// or Value word, on `row_word` one cycle later.
    pub read_row: Signal<In, Bits<6>>,
    pub read_value: Signal<In, Bit>,
    pub row_word: Signal<Out, Bits<64>>,
    pub busy: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    pub outcome: Signal<Out, Bits<3>>,
    /// For a contradiction: the line with no fill (rows 0..m, then columns).
    pub contradiction_line: Signal<Out, Bits<8>>,
    pub cycles: Signal<Out, Bits<CYCLE_BITS>>,
    pub passes: Signal<Out, Bits<8>>,
    /// The board's cells (rows × columns), and whether every one is known.
    pub board_cells: Signal<Out, Bits<13>>,
    pub all_known: Signal<Out, Bit>,
    line_solver: LineSolver,
    board: BlockRam<Bits<64>, 8>,
    line_table: BlockRam<Bits<17>, 7>,
    clues: BlockRam<Bits<7>, CLUE_STORE_BITS>,
    state: DFF<State>,
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
    // Newly fixed cells are copied lowest first. The lowest is found in two
    // registered steps (a 64-bit x & −x does not fit a 10 ns cycle): in
    // each byte of `fresh`, whether any and which lowest; then the lowest byte.
    byte_any: DFF<Bits<8>>,
    byte_lowest: [DFF<Bits<3>>; 8],
    copied_cell: DFF<Bits<6>>,
    copied_value: DFF<Bit>,
    byte_isolated: [Signal<Local, Bits<8>>; 8],
    byte_code: [Signal<Local, Bits<3>>; 8],
    byte_any_next: Signal<Local, Bits<8>>,
    any_isolated: Signal<Local, Bits<8>>,
    low_bits: Signal<Local, Bits<3>>,
    lowest_cell: Signal<Local, Bits<6>>,
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
    bit_masks: [Constant<Bits<8>>; 3],
    solved: Constant<Bits<3>>,
    contradiction: Constant<Bits<3>>,
    stalled: Constant<Bits<3>>,
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
            read_row: Default::default(),
            read_value: Default::default(),
            row_word: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            outcome: Default::default(),
            contradiction_line: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            board_cells: Default::default(),
            all_known: Default::default(),
            line_solver: Default::default(),
            board: Default::default(),
            line_table: Default::default(),
            clues: Default::default(),
            state: Default::default(),
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
            byte_any: Default::default(),
            byte_lowest: Default::default(),
            copied_cell: Default::default(),
            copied_value: Default::default(),
            byte_isolated: Default::default(),
            byte_code: Default::default(),
            byte_any_next: Default::default(),
            any_isolated: Default::default(),
            low_bits: Default::default(),
            lowest_cell: Default::default(),
            solved_known: Default::default(),
            next_line: Default::default(),
            row_fill: Default::default(),
            column_fill: Default::default(),
            row_fill_sum: Default::default(),
            column_fill_sum: Default::default(),
            solved_value: Default::default(),
            one: constant(1u64),
            bit_masks: array_init::array_init(|j| constant(mask(j))),
            solved: constant(outcome::SOLVED),
            contradiction: constant(outcome::CONTRADICTION),
            stalled: constant(outcome::STALLED),
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
            byte_any,
            copied_cell,
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
            done_q
        );
        self.line_solver.clock.next = self.clock.val();
        self.board.clock.next = self.clock.val();
        self.line_table.clock.next = self.clock.val();
        self.clues.clock.next = self.clock.val();
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
        self.byte_any.d.next = self.byte_any_next.val();
        // Step 2: the lowest byte with a bit, and that byte's lowest bit.
        self.any_isolated.next = self.byte_any.q.val() & (!self.byte_any.q.val() + 1);
        self.low_bits.next = 0.into();
        for g in 0..8 {
            if self.any_isolated.val().get_bit(g) {
                self.low_bits.next = self.low_bits.val() | self.byte_lowest[g].q.val();
            }
        }
        self.lowest_cell.next = bit_cast::<6, 3>(self.low_bits.val());
        for j in 0..3 {
            self.lowest_cell.next = self
                .lowest_cell
                .val()
                .replace_bit(j + 3, (self.any_isolated.val() & self.bit_masks[j].val()).any());
        }
        self.solved_known.next = self.line_solver.can_fill.val() ^ self.line_solver.can_empty.val();
        self.solved_value.next = self.line_solver.can_fill.val() & !self.line_solver.can_empty.val();

        // The board memory: the reply's reads unless a visit needs the port.
        self.board.read_address.next =
            bit_cast::<8, 6>(self.read_row.val()) | (bit_cast::<8, 1>(self.read_value.val().into()) << 6);
        self.board.write_enable.next = false;
        self.board.write_address.next = bit_cast::<8, 6>(self.index.q.val());
        self.board.write_data.next = 0.into();
        // The reply reads rows once the board is done; a visit's reads are
        // marked in its states below.
        self.board.read_used.next = self.state.q.val() == State::Done;
        self.row_word.next = self.board.read_data.val();
        self.board_cells.next = self.cells.q.val();
        self.all_known.next = self.known_cells.q.val() == self.cells.q.val();
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
                self.board.write_enable.next = true;
                self.board.write_address.next =
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
                    self.state.d.next = State::Seek;
                }
            }
            State::Seek => {
                self.state.d.next = State::Look;
            }
            State::Look => {
                if (self.line.q.val() == 0) & (self.passes_q.q.val() != 255) {
                    self.passes_q.d.next = self.passes_q.q.val() + 1;
                }
                if !self.any_dirty.q.val() {
                    self.outcome_q.d.next = self.stalled.val();
                    if self.board_known.q.val() {
                        self.outcome_q.d.next = self.solved.val();
                    }
                    self.done_q.d.next = true;
                    self.state.d.next = State::Done;
                } else if self.line_dirty.q.val() {
                    self.state.d.next = State::Fetch;
                } else {
                    self.next_line.next = true;
                    self.state.d.next = State::Seek;
                }
            }
            State::Fetch => {
                self.board.read_used.next = true;
                self.board.read_address.next = bit_cast::<8, 6>(self.index.q.val())
                    | (bit_cast::<8, 1>(self.is_column.q.val().into()) << 7);
                self.line_bit.d.next = self.one.val() << self.index.q.val();
                self.cleaning.d.next = true;
                self.state.d.next = State::Load;
            }
            State::Load => {
                self.board.read_used.next = true;
                self.board.read_address.next = bit_cast::<8, 6>(self.index.q.val())
                    | (bit_cast::<8, 1>(self.is_column.q.val().into()) << 7)
                    | 64;
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
                if self.line_solver.done.val() {
                    self.new_known.d.next = self.solved_known.val();
                    self.new_value.d.next = self.solved_value.val();
                    self.fresh.d.next = self.solved_known.val() & !self.line_known.q.val();
                    self.state.d.next = State::WriteKnown;
                    if !self.line_solver.feasible.val() {
                        self.outcome_q.d.next = self.contradiction.val();
                        self.done_q.d.next = true;
                        self.state.d.next = State::Done;
                    }
                }
            }
            State::WriteKnown => {
                self.board.write_enable.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.index.q.val())
                    | (bit_cast::<8, 1>(self.is_column.q.val().into()) << 7);
                self.board.write_data.next = self.new_known.q.val();
                self.state.d.next = State::WriteValue;
            }
            State::WriteValue => {
                self.board.write_enable.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.index.q.val())
                    | (bit_cast::<8, 1>(self.is_column.q.val().into()) << 7)
                    | 64;
                self.board.write_data.next = self.new_value.q.val();
                self.copied_cell.d.next = self.lowest_cell.val();
                self.state.d.next = State::Advance;
                if self.fresh.q.val().any() {
                    self.crossing.d.next = true;
                    self.state.d.next = State::CrossRead;
                }
            }
            // Each newly fixed cell into the other copy: read its Known and
            // Value words, set this line's bit in both.
            State::CrossRead => {
                self.board.read_used.next = true;
                self.board.read_address.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.is_column.q.val()).into()) << 7);
                self.fresh.d.next = self.fresh.q.val() & !(self.one.val() << self.copied_cell.q.val());
                self.copied_value.d.next = self.new_value.q.val().get_bit(self.copied_cell.q.val().index());
                self.state.d.next = State::CrossKnown;
            }
            State::CrossKnown => {
                self.board.read_used.next = true;
                self.board.read_address.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.is_column.q.val()).into()) << 7)
                    | 64;
                self.board.write_enable.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.is_column.q.val()).into()) << 7);
                self.board.write_data.next = self.board.read_data.val() | self.line_bit.q.val();
                self.state.d.next = State::CrossValue;
            }
            State::CrossValue => {
                self.board.write_enable.next = true;
                self.board.write_address.next = bit_cast::<8, 6>(self.copied_cell.q.val())
                    | (bit_cast::<8, 1>((!self.is_column.q.val()).into()) << 7)
                    | 64;
                self.board.write_data.next = self.board.read_data.val() & !self.line_bit.q.val();
                if self.copied_value.q.val() {
                    self.board.write_data.next = self.board.read_data.val() | self.line_bit.q.val();
                }
                self.copied_cell.d.next = self.lowest_cell.val();
                self.known_cells.d.next = self.known_cells.q.val() + 1;
                self.state.d.next = State::Advance;
                if self.fresh.q.val().any() {
                    self.crossing.d.next = true;
                    self.state.d.next = State::CrossRead;
                }
            }
            State::Advance => {
                self.next_line.next = true;
                self.state.d.next = State::Seek;
            }
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
                self.dirty_rows.d.next =
                    self.dirty_rows.q.val() | (self.one.val() << self.copied_cell.q.val());
            } else {
                self.dirty_columns.d.next =
                    self.dirty_columns.q.val() | (self.one.val() << self.copied_cell.q.val());
            }
        }
        self.any_dirty.d.next = (self.dirty_rows.q.val() | self.dirty_columns.q.val()).any();
        self.board_known.d.next = self.known_cells.q.val() == self.cells.q.val();

        self.busy.next = (self.state.q.val() != State::Idle) & (self.state.q.val() != State::Done);
        if self.busy.val() {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
        }
        self.done.next = self.done_q.q.val();
        self.outcome.next = self.outcome_q.q.val();
        self.contradiction_line.next = self.line.q.val();
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
            self.state.d.next = State::Clear;
        }
        if self.abort.val() {
            self.state.d.next = State::Idle;
            self.filling.d.next = false;
            self.start_line.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_cell_count, yosys_check};
    use crate::clue_model::{self, ClueVerdict};
    use crate::line_logic::tests::Rng;
    use crate::model::clues_of_picture;

    /// What the block answered, in the model's terms, and its cycle count.
    fn run(
        uut: &mut ClueSolver,
        row_clues: &[Vec<usize>],
        column_clues: &[Vec<usize>],
    ) -> (ClueVerdict, u64) {
        let (rows, columns) = (row_clues.len(), column_clues.len());
        uut.abort.next = true;
        tick(uut, |u| &mut u.clock);
        uut.abort.next = false;
        let mut address = 0u64;
        for (line, clue) in row_clues.iter().chain(column_clues).enumerate() {
            uut.line_write.next = true;
            uut.line_number.next = (line as u64).into();
            uut.line_first.next = address.into();
            uut.line_blocks.next = (clue.len() as u64).into();
            for &b in clue {
                uut.clue_write.next = true;
                uut.clue_address.next = address.into();
                uut.clue_length.next = (b as u64).into();
                tick(uut, |u| &mut u.clock);
                uut.line_write.next = false;
                address += 1;
            }
            tick(uut, |u| &mut u.clock);
            uut.clue_write.next = false;
            uut.line_write.next = false;
        }
        uut.rows.next = (rows as u64).into();
        uut.columns.next = (columns as u64).into();
        uut.start.next = true;
        tick(uut, |u| &mut u.clock);
        uut.start.next = false;
        let mut guard = 0;
        while !uut.done.val() {
            tick(uut, |u| &mut u.clock);
            guard += 1;
            assert!(guard < 5_000_000, "no verdict");
        }
        let mut verdict = ClueVerdict {
            rows,
            columns,
            outcome: uut.outcome.val().to_u8(),
            detail: uut.contradiction_line.val().to_u8(),
            cells: vec![],
            differs: vec![],
            visits: 0,
            passes: uut.passes.val().to_u8(),
            cycles: uut.cycles.val().to_u64(),
            nodes: 0,
            backtracks: 0,
        };
        let cycles = uut.cycles.val().to_u64();
        for r in 0..rows {
            let mut words = [0u64; 2];
            for (plane, word) in words.iter_mut().enumerate() {
                uut.read_row.next = (r as u64).into();
                uut.read_value.next = plane == 1;
                tick(uut, |u| &mut u.clock);
                *word = uut.row_word.val().to_u64();
            }
            verdict
                .cells
                .extend((0..columns).map(|c| (words[0] >> c & 1 == 1).then_some(words[1] >> c & 1 == 1)));
        }
        (verdict, cycles)
    }

    fn check(
        uut: &mut ClueSolver,
        row_clues: &[Vec<usize>],
        column_clues: &[Vec<usize>],
    ) -> (ClueVerdict, u64) {
        let expected = clue_model::solve(row_clues, column_clues);
        let (got, cycles) = run(uut, row_clues, column_clues);
        let what = format!("rows {row_clues:?} columns {column_clues:?}");
        assert_eq!(got.outcome, expected.outcome, "outcome, {what}");
        assert_eq!(got.passes, expected.passes, "passes, {what}");
        assert_eq!(got.cycles, expected.cycles, "cycles, {what}");
        if expected.outcome == outcome::CONTRADICTION {
            assert_eq!(got.detail, expected.detail, "contradiction line, {what}");
        } else {
            assert_eq!(got.cells, expected.cells, "cells, {what}");
        }
        (expected, cycles)
    }

    fn new_solver() -> ClueSolver {
        let mut uut = ClueSolver::default();
        uut.connect_all();
        uut
    }

    #[test]
    fn solves_the_original_boards_like_the_model() {
        let mut uut = new_solver();
        let heart = (
            vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
            vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
        );
        let four = (
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        );
        for (name, (r, c)) in [("4x4", four), ("heart", heart)] {
            let (v, cycles) = check(&mut uut, &r, &c);
            assert_eq!(v.outcome, outcome::SOLVED);
            println!("{name}: {} visits, {cycles} cycles", v.visits);
        }
        // A full-size board: a staircase, solvable by line logic.
        let picture: Vec<bool> = (0..64 * 64).map(|i| i % 64 <= i / 64).collect();
        let (r, c) = clues_of_picture(64, 64, &picture);
        let clock = std::time::Instant::now();
        let (v, cycles) = check(&mut uut, &r, &c);
        let seconds = clock.elapsed().as_secs_f64();
        println!("RustHDL simulation: {:.0} cycles/s", cycles as f64 / seconds);
        assert_eq!(v.outcome, outcome::SOLVED);
        assert!(v.cells.iter().zip(&picture).all(|(c, p)| *c == Some(*p)));
        println!("64x64: {} visits, {cycles} cycles", v.visits);
        check(&mut uut, &[vec![2], vec![]], &[vec![], vec![1]]);
        check(&mut uut, &[vec![1], vec![1]], &[vec![1], vec![1]]);
        check(&mut uut, &[vec![3]], &[vec![1], vec![1]]);
    }

    #[test]
    fn random_puzzles_match_the_model() {
        let mut uut = new_solver();
        let mut rng = Rng(0x5eed_0b0a);
        let mut outcomes = [0usize; 3];
        for trial in 0..12 {
            let (rows, columns) = match trial {
                0 => (64, 64), // sparse enough for the clue store: see below
                1 => (1, 64),
                2 => (64, 3),
                _ => (1 + rng.below(20) as usize, 1 + rng.below(20) as usize),
            };
            let density = if trial == 0 { 20 } else { 40 + rng.below(40) };
            let cells: Vec<bool> = (0..rows * columns).map(|_| rng.below(100) < density).collect();
            let (r, c) = clues_of_picture(rows, columns, &cells);
            if r.iter().chain(&c).map(Vec::len).sum::<usize>() > 1 << CLUE_STORE_BITS {
                continue;
            }
            let (v, cycles) = check(&mut uut, &r, &c);
            println!(
                "{rows}x{columns}: outcome {}, {} visits, {cycles} cycles",
                v.outcome, v.visits
            );
            outcomes[v.outcome as usize] += 1;
        }
        assert!(outcomes[0] > 0 && outcomes[2] > 0, "{outcomes:?}");
    }

    #[test]
    fn verilog_synthesises() {
        let uut = new_solver();
        if let Some(log) = yosys_check(&uut, "clue_solver") {
            println!(
                "clue engine: {} LUT4s, {} block RAMs",
                yosys_cell_count(&log, "SB_LUT4"),
                yosys_cell_count(&log, "SB_RAM40_4K")
            );
        }
    }
}

/// The emitted Verilog, simulated by Icarus, against the model.
#[cfg(test)]
mod verilog {
    use super::*;
    use crate::bench::iverilog_run;
    use crate::clue_model;
    use crate::line_logic::tests::Rng;
    use crate::model::clues_of_picture;

    const TESTBENCH: &str = r#"
module tb;
  reg clock = 0;
  reg abort = 0, start = 0, clue_write = 0, line_write = 0, read_value = 0;
  reg [6:0] rows, columns, clue_length, line_number;
  reg [10:0] clue_address, line_first;
  reg [5:0] line_blocks, read_row;
  wire [63:0] row_word;
  wire busy, done;
  wire [2:0] outcome;
  wire [7:0] contradiction_line, passes;
  wire [31:0] cycles;
  top uut(.clock(clock), .abort(abort), .start(start), .rows(rows), .columns(columns),
          .clue_write(clue_write), .clue_address(clue_address), .clue_length(clue_length),
          .line_write(line_write), .line_number(line_number), .line_first(line_first),
          .line_blocks(line_blocks), .read_row(read_row), .read_value(read_value),
          .row_word(row_word), .busy(busy), .done(done), .outcome(outcome),
          .contradiction_line(contradiction_line), .cycles(cycles), .passes(passes));
  // Boards: m, n, then per line its block count and blocks; 0 0 ends.
  reg [15:0] stimulus [0:65535];
  integer at, line, b, k, r, guard;
  reg [63:0] known;
  always #5 clock = ~clock;
  initial begin
    $readmemh("stimulus.hex", stimulus);
    at = 0;
    while (stimulus[at] != 0) begin
      rows = stimulus[at]; columns = stimulus[at + 1]; at = at + 2;
      abort = 1; @(posedge clock); #1; abort = 0;
      clue_address = 0;
      for (line = 0; line < rows + columns; line = line + 1) begin
        k = stimulus[at]; at = at + 1;
        line_write = 1; line_number = line; line_first = clue_address; line_blocks = k;
        for (b = 0; b < k; b = b + 1) begin
          clue_write = 1; clue_length = stimulus[at]; at = at + 1;
          @(posedge clock); #1;
          line_write = 0; clue_address = clue_address + 1;
        end
        @(posedge clock); #1;
        clue_write = 0; line_write = 0;
      end
      start = 1; @(posedge clock); #1; start = 0;
      guard = 0;
      while (!done && guard < 2000000) begin @(posedge clock); #1; guard = guard + 1; end
      $display("%0d %0d %0d %0d", outcome, contradiction_line, passes, cycles);
      for (r = 0; r < rows; r = r + 1) begin
        read_row = r; read_value = 0; @(posedge clock); #1; known = row_word;
        read_value = 1; @(posedge clock); #1;
        $display("%h %h", known, row_word);
      end
    end
    $finish;
  end
endmodule
"#;

    #[test]
    fn verilog_matches_the_model() {
        let mut rng = Rng(0x1ca5_b0a4d);
        let mut boards = vec![clues_of_picture(
            64,
            64,
            &(0..64 * 64).map(|i| i % 64 <= i / 64).collect::<Vec<_>>(),
        )];
        boards.push((vec![vec![2], vec![]], vec![vec![], vec![1]]));
        for _ in 0..10 {
            let (m, n) = (1 + rng.below(24) as usize, 1 + rng.below(24) as usize);
            let density = 40 + rng.below(40);
            let cells: Vec<bool> = (0..m * n).map(|_| rng.below(100) < density).collect();
            boards.push(clues_of_picture(m, n, &cells));
        }
        let mut words = vec![];
        for (r, c) in &boards {
            words.extend([r.len(), c.len()]);
            for clue in r.iter().chain(c) {
                words.push(clue.len());
                words.extend(clue);
            }
        }
        words.extend([0, 0]);
        let hex: String = words.iter().map(|w| format!("{w:04x}\n")).collect();
        let mut uut = ClueSolver::default();
        uut.connect_all();
        let Some(out) = iverilog_run(&uut, "clue_solver", TESTBENCH, &[("stimulus.hex", hex)]) else {
            return;
        };
        let mut lines = out
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with("VCD") && !l.starts_with("WARNING"));
        for (r, c) in &boards {
            let v = clue_model::solve(r, c);
            let head = format!(
                "{} {} {} {}",
                v.outcome,
                if v.outcome == outcome::CONTRADICTION {
                    v.detail
                } else {
                    0
                },
                v.passes,
                v.cycles
            );
            let got = lines.next().expect("a verdict line");
            let got_head: Vec<&str> = got.split(' ').collect();
            let line_field = if v.outcome == outcome::CONTRADICTION {
                got_head[1]
            } else {
                "0"
            };
            assert_eq!(
                format!("{} {} {} {}", got_head[0], line_field, got_head[2], got_head[3]),
                head,
                "rows {r:?} columns {c:?}"
            );
            for row in 0..r.len() {
                let got = lines.next().expect("a row");
                if v.outcome == outcome::CONTRADICTION {
                    continue; // cells as far as the solve got: compared in RustHDL's bench
                }
                let cells = &v.cells[row * c.len()..(row + 1) * c.len()];
                let known = cells
                    .iter()
                    .enumerate()
                    .fold(0u64, |w, (i, x)| w | (x.is_some() as u64) << i);
                let value = cells
                    .iter()
                    .enumerate()
                    .fold(0u64, |w, (i, x)| w | ((*x == Some(true)) as u64) << i);
                let (gk, gv) = got.split_once(' ').unwrap();
                let mask = if c.len() == 64 {
                    u64::MAX
                } else {
                    (1 << c.len()) - 1
                };
                let gk = u64::from_str_radix(gk, 16).unwrap() & mask;
                let gv = u64::from_str_radix(gv, 16).unwrap() & mask & gk;
                assert_eq!((gk, gv), (known, value), "row {row}, rows {r:?} columns {c:?}");
            }
        }
    }
}
