//! The solver (DNF engine): holds Known and Value for every cell and filters
//! each line's options against them until nothing changes.
//!
//! It visits the lines in phases: the dirty rows in order, then the dirty
//! columns, and so on (`model.rs` is the same in plain Rust). A line is dirty
//! until its first visit, and again when a visit of a crossing line newly
//! fixes one of its cells; lines of one phase never cross, so a phase's
//! lines are known when it begins and their visits cannot affect one
//! another. The solve ends with a contradiction when a line keeps no
//! option, and otherwise when a phase leaves no line of the other phase
//! dirty: solved if every row is full, stalled if not.
//!
//! # Board memory
//!
//! Known and Value live in block RAM twice (`board_copy.rs`): the
//! row copy (word r = row r) and the column copy (word c = column c). A visit
//! reads its line from its own copy and writes it back whole; the cells it
//! newly fixes go into the other copy through the cell writer
//! (`cell_writer.rs`), which runs behind the visits and is done before the
//! next phase reads that copy. A new board clears both copies (32 cycles,
//! while the board is being received).
//!
//! # A phase, cycle by cycle
//!
//! * pick: the lowest line left in `todo` (registered, one-hot);
//! * fetch: its table entry and its word are read (they stay on the RAM
//!   outputs until taken);
//! * take: the line filter (`line_filter.rs`) takes them in the cycle its
//!   previous line reads its last pair, so lines follow with no gap;
//! * filter: read, register, compare, write back (4 stages), then
//! * U: the new Known and Value, the cells newly fixed (registered), and
//! * commit: write the word, the line's count and the job for the cell
//!   writer; dirty the crossing lines.
//!
//! The phase ends when nothing is left in flight and the writer is idle;
//! that cycle decides and picks the next phase's first line.

use crate::common::lowest_bit::LowestBit;
use crate::common::params::{COUNT_BITS, CYCLE_BITS, DIM_BITS, FIFO_ADDR_BITS, LINE_ID_BITS, MAX_LINE};
use crate::constant;
use crate::dnf::board_copy::BoardCopy;
use crate::dnf::cell_writer::{index_bits, CellWriter};
use crate::dnf::line_filter::LineFilter;
use crate::dnf::option_store::{OptionStore, PairPort, ENTRY_BITS, TABLE_BITS};
use crate::link::protocol::status::outcome;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum SolveState {
    /// Both copies are being cleared (after an abort).
    Clear,
    Idle,
    /// Phases of visits.
    Run,
    /// The verdict is in; row 0 is being read for the reply.
    Finish,
    /// Verdict and rows available; the reply reads them row by row.
    Done,
}

#[derive(LogicBlock)]
pub struct Solver {
    pub clock: Signal<In, Clock>,
    /// Stop whatever is going on (new board, query or reset) and clear the
    /// board memory and the option store.
    pub abort: Signal<In, Bit>,
    /// Pulse: the store holds a board of `rows` × `columns`; solve it.
    pub start: Signal<In, Bit>,
    pub rows: Signal<In, Bits<DIM_BITS>>,
    pub columns: Signal<In, Bits<DIM_BITS>>,
    /// The loader's ports of the option store (see `option_store.rs`).
    pub append: Signal<In, Bit>,
    pub append_data: Signal<In, Bits<MAX_LINE>>,
    pub full: Signal<Out, Bit>,
    pub len: Signal<Out, Bits<COUNT_BITS>>,
    pub line_end: Signal<In, Bit>,
    pub line_end_line: Signal<In, Bits<LINE_ID_BITS>>,
    pub line_end_count: Signal<In, Bits<COUNT_BITS>>,
    /// High from `start` to the verdict.
    pub busy: Signal<Out, Bit>,
    /// Pulse: the verdict is ready.
    pub done: Signal<Out, Bit>,
    pub outcome: Signal<Out, Bits<3>>,
    /// For a contradiction, the line that lost all its options.
    pub contradiction_line: Signal<Out, Bits<LINE_ID_BITS>>,
    pub cycles: Signal<Out, Bits<CYCLE_BITS>>,
    pub passes: Signal<Out, Bits<8>>,
    /// From the cycle after `done`: row 0 (bit c = column c), and a request
    /// for the next row (it is there three cycles later).
    pub top_known: Signal<Out, Bits<MAX_LINE>>,
    pub top_value: Signal<Out, Bits<MAX_LINE>>,
    pub next_row: Signal<In, Bit>,
    store: OptionStore,
    filter: LineFilter,
    writer: CellWriter,
    todo_lowest: LowestBit,
    next_lowest: LowestBit,
    row_copy: BoardCopy,
    column_copy: BoardCopy,
    state: DFF<SolveState>,
    clear_address: DFF<Bits<5>>,
    // The clear's last cycle (registered: a start then loads most of the
    // solver's registers, and an address compare before that fan-out
    // missed 100 MHz).
    clear_last: DFF<Bit>,
    start_pending: DFF<Bit>,
    // The board, registered at the start: the cells of a row (bit c for
    // c < columns) and of a column (bit r for r < rows).
    row_phase: DFF<Bit>,
    row_cells: DFF<Bits<MAX_LINE>>,
    column_cells: DFF<Bits<MAX_LINE>>,
    line_mask: DFF<Bits<MAX_LINE>>,
    rows_q: DFF<Bits<LINE_ID_BITS>>,
    // Lines to visit: this phase's (`todo`), and the next phases'.
    dirty_rows: DFF<Bits<MAX_LINE>>,
    dirty_columns: DFF<Bits<MAX_LINE>>,
    // Whether each is not empty (registered: an OR of 32 bits in the cycle
    // that decides held the DNF bitstream to 83 MHz).
    rows_dirty: DFF<Bit>,
    columns_dirty: DFF<Bit>,
    todo: DFF<Bits<MAX_LINE>>,
    picked: DFF<Bit>,
    pick: DFF<Bits<MAX_LINE>>,
    fetched: DFF<Bit>,
    fetched_index: DFF<Bits<5>>,
    // Stage U: a line's verdict.
    u_valid: DFF<Bit>,
    u_index: DFF<Bits<5>>,
    u_base: DFF<Bits<FIFO_ADDR_BITS>>,
    u_survivors: DFF<Bits<COUNT_BITS>>,
    u_known: DFF<Bits<MAX_LINE>>,
    u_value: DFF<Bits<MAX_LINE>>,
    u_changed: DFF<Bits<MAX_LINE>>,
    u_changed_any: DFF<Bit>,
    u_full: DFF<Bit>,
    u_empty: DFF<Bit>,
    // A line with survivors: its word is written (registered, so that the
    // copies' write ports are a 2-input choice from registers).
    u_write: DFF<Bit>,
    clearing: DFF<Bit>,
    // High exactly while `state` is Run (a flag of its own: the cycle that
    // decides then reads three registers, not the state's encoding; with
    // the compare, the decision missed 100 MHz at some nextpnr seeds).
    running: DFF<Bit>,
    phase_began: DFF<Bit>,
    in_flight: DFF<Bit>,
    top_known_q: DFF<Bits<MAX_LINE>>,
    top_value_q: DFF<Bits<MAX_LINE>>,
    full_rows: DFF<Bits<MAX_LINE>>,
    contradiction: DFF<Bit>,
    contradiction_line_q: DFF<Bits<LINE_ID_BITS>>,
    outcome_q: DFF<Bits<3>>,
    cycles_q: DFF<Bits<CYCLE_BITS>>,
    passes_q: DFF<Bits<8>>,
    done_q: DFF<Bit>,
    // Combinational helpers.
    start_now: Signal<Local, Bit>,
    pick_index: Signal<Local, Bits<5>>,
    fetch: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    // Running, with nothing in flight and the writer idle: the phase is over.
    phase_over: Signal<Local, Bit>,
    next_dirty: Signal<Local, Bits<MAX_LINE>>,
    next_any: Signal<Local, Bit>,
    copy_known: Signal<Local, Bits<MAX_LINE>>,
    copy_value: Signal<Local, Bits<MAX_LINE>>,
    new_known: Signal<Local, Bits<MAX_LINE>>,
    u_line: Signal<Local, Bits<MAX_LINE>>,
    table_address: Signal<Local, Bits<TABLE_BITS>>,
    start_row_cells: Signal<Local, Bits<MAX_LINE>>,
    start_column_cells: Signal<Local, Bits<MAX_LINE>>,
    one: Constant<Bits<MAX_LINE>>,
    count_shift: Constant<Bits<8>>,
    index_bit: [Constant<Bits<MAX_LINE>>; 5],
    solved: Constant<Bits<3>>,
    contradicted: Constant<Bits<3>>,
    stalled: Constant<Bits<3>>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver {
            clock: Default::default(),
            abort: Default::default(),
            start: Default::default(),
            rows: Default::default(),
            columns: Default::default(),
            append: Default::default(),
            append_data: Default::default(),
            full: Default::default(),
            len: Default::default(),
            line_end: Default::default(),
            line_end_line: Default::default(),
            line_end_count: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            outcome: Default::default(),
            contradiction_line: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            top_known: Default::default(),
            top_value: Default::default(),
            next_row: Default::default(),
            store: Default::default(),
            filter: Default::default(),
            writer: Default::default(),
            todo_lowest: Default::default(),
            next_lowest: Default::default(),
            row_copy: Default::default(),
            column_copy: Default::default(),
            state: Default::default(),
            clear_address: Default::default(),
            clear_last: Default::default(),
            start_pending: Default::default(),
            row_phase: Default::default(),
            row_cells: Default::default(),
            column_cells: Default::default(),
            line_mask: Default::default(),
            rows_q: Default::default(),
            dirty_rows: Default::default(),
            dirty_columns: Default::default(),
            rows_dirty: Default::default(),
            columns_dirty: Default::default(),
            todo: Default::default(),
            picked: Default::default(),
            pick: Default::default(),
            fetched: Default::default(),
            fetched_index: Default::default(),
            u_valid: Default::default(),
            u_index: Default::default(),
            u_base: Default::default(),
            u_survivors: Default::default(),
            u_known: Default::default(),
            u_value: Default::default(),
            u_changed: Default::default(),
            u_changed_any: Default::default(),
            u_full: Default::default(),
            u_empty: Default::default(),
            u_write: Default::default(),
            clearing: Default::default(),
            running: Default::default(),
            phase_began: Default::default(),
            in_flight: Default::default(),
            top_known_q: Default::default(),
            top_value_q: Default::default(),
            full_rows: Default::default(),
            contradiction: Default::default(),
            contradiction_line_q: Default::default(),
            outcome_q: Default::default(),
            cycles_q: Default::default(),
            passes_q: Default::default(),
            done_q: Default::default(),
            start_now: Default::default(),
            pick_index: Default::default(),
            fetch: Default::default(),
            take: Default::default(),
            phase_over: Default::default(),
            next_dirty: Default::default(),
            next_any: Default::default(),
            copy_known: Default::default(),
            copy_value: Default::default(),
            new_known: Default::default(),
            u_line: Default::default(),
            table_address: Default::default(),
            start_row_cells: Default::default(),
            start_column_cells: Default::default(),
            one: constant(1u64),
            count_shift: constant(FIFO_ADDR_BITS as u64),
            index_bit: index_bits(),
            solved: constant(outcome::SOLVED),
            contradicted: constant(outcome::CONTRADICTION),
            stalled: constant(outcome::STALLED),
        }
    }
}

impl Logic for Solver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            clear_address,
            clear_last,
            start_pending,
            row_phase,
            row_cells,
            column_cells,
            line_mask,
            rows_q,
            dirty_rows,
            dirty_columns,
            rows_dirty,
            columns_dirty,
            todo,
            picked,
            pick,
            fetched,
            fetched_index,
            u_valid,
            u_index,
            u_base,
            u_survivors,
            u_known,
            u_value,
            u_changed,
            u_changed_any,
            u_full,
            u_empty,
            u_write,
            clearing,
            running,
            phase_began,
            in_flight,
            top_known_q,
            top_value_q,
            full_rows,
            contradiction,
            contradiction_line_q,
            outcome_q,
            cycles_q,
            passes_q,
            done_q
        );
        self.store.clock.next = self.clock.val();
        self.filter.clock.next = self.clock.val();
        self.writer.clock.next = self.clock.val();
        self.row_copy.clock.next = self.clock.val();
        self.column_copy.clock.next = self.clock.val();

        // The loader's ports.
        self.store.clear.next = self.abort.val();
        self.store.append.next = self.append.val();
        self.store.append_data.next = self.append_data.val();
        self.full.next = self.store.full.val();
        self.len.next = self.store.len.val();
        self.store.line_end.next = self.line_end.val();
        self.store.line_end_line.next = self.line_end_line.val();
        self.store.line_end_count.next = self.line_end_count.val();
        self.store.rows.next = self.rows.val();

        // The filter's ports of the store.
        PairPort::join(&mut self.filter.store, &mut self.store.pairs);

        // The line masks of this board: bit i is set for i < length.
        self.start_row_cells.next = 0.into();
        self.start_column_cells.next = 0.into();
        for i in 0..MAX_LINE {
            self.start_row_cells.next = self
                .start_row_cells
                .val()
                .replace_bit(i, self.columns.val().index() > i);
            self.start_column_cells.next = self
                .start_column_cells
                .val()
                .replace_bit(i, self.rows.val().index() > i);
        }

        // Pick, fetch, take.
        self.pick_index.next = 0.into();
        for k in 0..5 {
            self.pick_index.next = self
                .pick_index
                .val()
                .replace_bit(k, (self.pick.q.val() & self.index_bit[k].val()) != 0);
        }
        self.take.next = self.fetched.q.val() & self.filter.free.val();
        self.fetch.next = self.picked.q.val() & (!self.fetched.q.val() | self.take.val());
        self.table_address.next = bit_cast::<TABLE_BITS, 5>(self.fetched_index.q.val());
        if self.fetch.val() {
            self.table_address.next = bit_cast::<TABLE_BITS, 5>(self.pick_index.val());
        }
        self.table_address.next = self.table_address.val().replace_bit(5, !self.row_phase.q.val());
        self.store.table_read_address.next = self.table_address.val();
        self.store.table_read_used.next = self.fetch.val() | self.fetched.q.val();
        self.row_copy.read_address.next = self.table_address.val().get_bits::<5>(0);
        self.column_copy.read_address.next = self.table_address.val().get_bits::<5>(0);
        self.row_copy.read_used.next = (self.fetch.val() | self.fetched.q.val()) & self.row_phase.q.val();
        self.column_copy.read_used.next = (self.fetch.val() | self.fetched.q.val()) & !self.row_phase.q.val();
        self.copy_known.next = self.column_copy.known.val();
        self.copy_value.next = self.column_copy.value.val();
        if self.row_phase.q.val() {
            self.copy_known.next = self.row_copy.known.val();
            self.copy_value.next = self.row_copy.value.val();
        }
        if self.fetch.val() {
            self.fetched.d.next = true;
            self.fetched_index.d.next = self.pick_index.val();
        } else if self.take.val() {
            self.fetched.d.next = false;
        }
        self.todo_lowest.word.next = self.todo.q.val();
        if !self.picked.q.val() | self.fetch.val() {
            self.pick.d.next = self.todo_lowest.lowest.val();
            self.picked.d.next = self.todo.q.val() != 0;
            self.todo.d.next = self.todo.q.val() & !self.todo_lowest.lowest.val();
        }
        self.filter.take.next = self.take.val();
        self.filter.take_index.next = self.fetched_index.q.val();
        self.filter.take_base.next = self.store.table_data.val().get_bits::<FIFO_ADDR_BITS>(0);
        self.filter.take_count.next =
            bit_cast::<COUNT_BITS, ENTRY_BITS>(self.store.table_data.val() >> self.count_shift.val());
        self.filter.take_known.next = self.copy_known.val();
        self.filter.take_value.next = self.copy_value.val();
        self.filter.flush.next = false;

        // Stage U.
        self.new_known.next =
            (self.filter.result_all.val() | !self.filter.result_any.val()) & self.line_mask.q.val();
        self.u_valid.d.next = self.filter.result.val();
        self.u_index.d.next = self.filter.result_index.val();
        self.u_base.d.next = self.filter.result_base.val();
        self.u_survivors.d.next = self.filter.result_survivors.val();
        self.u_known.d.next = self.new_known.val();
        self.u_value.d.next = self.filter.result_all.val() & self.line_mask.q.val();
        self.u_changed.d.next = self.new_known.val() & !self.filter.result_known.val();
        self.u_changed_any.d.next = (self.new_known.val() & !self.filter.result_known.val()) != 0;
        self.u_full.d.next = self.new_known.val() == self.line_mask.q.val();
        self.u_empty.d.next = self.filter.result_empty.val();
        self.u_write.d.next = self.filter.result.val() & !self.filter.result_empty.val();

        // Commit: the line's word, its count, the crossing cells, the dirt.
        self.u_line.next = self.one.val() << self.u_index.q.val();
        self.store.table_write.next = false;
        self.store.table_write_address.next =
            bit_cast::<TABLE_BITS, 5>(self.u_index.q.val()).replace_bit(5, !self.row_phase.q.val());
        self.store.table_write_data.next = bit_cast::<ENTRY_BITS, FIFO_ADDR_BITS>(self.u_base.q.val())
            | (bit_cast::<ENTRY_BITS, COUNT_BITS>(self.u_survivors.q.val()) << self.count_shift.val());
        self.writer.reset.next = self.abort.val();
        self.writer.commit.next = false;
        self.writer.commit_index.next = self.u_index.q.val();
        self.writer.commit_changed.next = self.u_changed.q.val();
        self.writer.commit_value.next = self.u_value.q.val();
        if self.u_valid.q.val() {
            if self.u_empty.q.val() {
                // No option left: stop here, dropping the lines after it.
                self.contradiction.d.next = true;
                self.contradiction_line_q.d.next = bit_cast::<LINE_ID_BITS, 5>(self.u_index.q.val());
                if !self.row_phase.q.val() {
                    self.contradiction_line_q.d.next =
                        bit_cast::<LINE_ID_BITS, 5>(self.u_index.q.val()) + self.rows_q.q.val();
                }
                self.filter.flush.next = true;
                self.picked.d.next = false;
                self.fetched.d.next = false;
                self.todo.d.next = 0.into();
                self.u_valid.d.next = false;
                self.u_write.d.next = false;
            } else {
                self.store.table_write.next = true;
                self.writer.commit.next = self.u_changed_any.q.val();
                if self.row_phase.q.val() {
                    self.dirty_columns.d.next = self.dirty_columns.q.val() | self.u_changed.q.val();
                    self.columns_dirty.d.next = self.columns_dirty.q.val() | self.u_changed_any.q.val();
                    if self.u_full.q.val() {
                        self.full_rows.d.next = self.full_rows.q.val() | self.u_line.val();
                    }
                } else {
                    self.dirty_rows.d.next = self.dirty_rows.q.val() | self.u_changed.q.val();
                    self.rows_dirty.d.next = self.rows_dirty.q.val() | self.u_changed_any.q.val();
                }
            }
        }
        // The line's word goes into its own copy, the writer's cells into
        // the other; a new board clears both (the copies register them).
        self.row_copy.word_write.next = self.u_write.q.val() & self.row_phase.q.val();
        self.column_copy.word_write.next = self.u_write.q.val() & !self.row_phase.q.val();
        self.row_copy.word_address.next = self.u_index.q.val();
        self.column_copy.word_address.next = self.u_index.q.val();
        self.row_copy.word_known.next = self.u_known.q.val();
        self.column_copy.word_known.next = self.u_known.q.val();
        self.row_copy.word_value.next = self.u_value.q.val();
        self.column_copy.word_value.next = self.u_value.q.val();
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
        self.row_copy.even_write.next = self.writer.even_write.val() & !self.row_phase.q.val();
        self.row_copy.odd_write.next = self.writer.odd_write.val() & !self.row_phase.q.val();
        self.column_copy.even_write.next = self.writer.even_write.val() & self.row_phase.q.val();
        self.column_copy.odd_write.next = self.writer.odd_write.val() & self.row_phase.q.val();

        // Anything in flight now is still in flight next cycle, or has
        // become a commit (a line's last pair, W, becomes U), or has been
        // flushed; a new phase or a start puts a line in flight. So
        // `in_flight` (registered) and the writer's `busy` (registered) say
        // whether the phase is still going: with `running`, the decision
        // reads three registers.
        self.in_flight.d.next =
            (self.picked.q.val() | self.fetched.q.val() | self.filter.busy.val()) & !self.filter.flush.val();
        self.phase_over.next = self.running.q.val() & !self.in_flight.q.val() & !self.writer.busy.val();
        self.next_dirty.next = self.dirty_rows.q.val();
        self.next_any.next = self.rows_dirty.q.val();
        if self.row_phase.q.val() {
            self.next_dirty.next = self.dirty_columns.q.val();
            self.next_any.next = self.columns_dirty.q.val();
        }
        self.next_lowest.word.next = self.next_dirty.val();

        self.busy.next = (self.state.q.val() == SolveState::Run)
            | (self.state.q.val() == SolveState::Finish)
            | self.start_pending.q.val();
        self.done.next = self.done_q.q.val();
        self.done_q.d.next = false;
        self.outcome.next = self.outcome_q.q.val();
        self.contradiction_line.next = self.contradiction_line_q.q.val();
        self.cycles.next = self.cycles_q.q.val();
        self.passes.next = self.passes_q.q.val();
        // Registered: the reply picks a cell out of the row, and a RAM output
        // before that pick missed 100 MHz.
        self.top_known_q.d.next = self.row_copy.known.val();
        self.top_value_q.d.next = self.row_copy.value.val();
        self.top_known.next = self.top_known_q.q.val();
        self.top_value.next = self.top_value_q.q.val();
        if (self.state.q.val() == SolveState::Run) | (self.state.q.val() == SolveState::Finish) {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
        }
        self.start_now.next = self.start.val();
        // A phase began: its lines are in `todo`; its dirt starts afresh.
        self.phase_began.d.next = false;
        if self.phase_began.q.val() {
            if self.row_phase.q.val() {
                self.dirty_rows.d.next = 0.into();
                self.rows_dirty.d.next = false;
                self.line_mask.d.next = self.row_cells.q.val();
                if self.passes_q.q.val() != 255 {
                    self.passes_q.d.next = self.passes_q.q.val() + 1;
                }
            } else {
                self.dirty_columns.d.next = 0.into();
                self.columns_dirty.d.next = false;
                self.line_mask.d.next = self.column_cells.q.val();
            }
        }

        match self.state.q.val() {
            SolveState::Clear => {
                self.clear_address.d.next = self.clear_address.q.val() + 1;
                self.clear_last.d.next = self.clear_address.q.val() == 30;
                self.start_now.next = self.start_pending.q.val() & self.clear_last.q.val();
                if self.start.val() {
                    self.start_pending.d.next = true;
                }
                if self.clear_last.q.val() {
                    self.clearing.d.next = false;
                    self.state.d.next = SolveState::Idle;
                }
            }
            SolveState::Idle => {}
            SolveState::Run => {}
            SolveState::Finish => {
                self.outcome_q.d.next = self.stalled.val();
                if (self.full_rows.q.val() & self.column_cells.q.val()) == self.column_cells.q.val() {
                    self.outcome_q.d.next = self.solved.val();
                }
                if self.contradiction.q.val() {
                    self.outcome_q.d.next = self.contradicted.val();
                }
                self.done_q.d.next = true;
                self.row_phase.d.next = true;
                self.state.d.next = SolveState::Done;
            }
            SolveState::Done => {
                if self.next_row.val() {
                    self.fetched_index.d.next = self.fetched_index.q.val() + 1;
                }
            }
            _ => {
                self.state.d.next = SolveState::Idle;
            }
        }
        // Run: the cycle that decides does only what the next cycle needs
        // (a wider decision here held the DNF bitstream to 88 MHz); the rest
        // follows in the cycle after (`phase_began`, Finish). Outside the
        // match: `running` is the state, and the decision waits on no compare.
        if self.phase_over.val() {
            if self.contradiction.q.val() | !self.next_any.val() {
                // Row 0 for the reply.
                self.fetched_index.d.next = 0.into();
                self.state.d.next = SolveState::Finish;
                self.running.d.next = false;
            } else {
                self.row_phase.d.next = !self.row_phase.q.val();
                self.pick.d.next = self.next_lowest.lowest.val();
                self.picked.d.next = true;
                self.todo.d.next = self.next_dirty.val() & !self.next_lowest.lowest.val();
                self.phase_began.d.next = true;
                self.in_flight.d.next = true;
            }
        }
        if (self.state.q.val() == SolveState::Finish) | (self.state.q.val() == SolveState::Done) {
            self.row_copy.read_used.next = true;
        }
        if self.start_now.val() {
            self.start_pending.d.next = false;
            self.row_phase.d.next = true;
            self.row_cells.d.next = self.start_row_cells.val();
            self.column_cells.d.next = self.start_column_cells.val();
            self.line_mask.d.next = self.start_row_cells.val();
            self.rows_q.d.next = bit_cast::<LINE_ID_BITS, DIM_BITS>(self.rows.val());
            self.dirty_rows.d.next = 0.into();
            // Rows are numbered by a column's cells and columns by a row's.
            self.dirty_columns.d.next = self.start_row_cells.val();
            self.rows_dirty.d.next = false;
            self.columns_dirty.d.next = true;
            self.full_rows.d.next = 0.into();
            self.contradiction.d.next = false;
            // Row 0 is fetched now (out of a solve the read addresses are
            // row 0's); row 1, if any, is picked.
            self.fetched.d.next = true;
            self.in_flight.d.next = true;
            self.fetched_index.d.next = 0.into();
            self.pick.d.next = self.start_column_cells.val() & (self.one.val() << 1);
            self.picked.d.next = self.rows.val() > 1;
            self.todo.d.next = (self.start_column_cells.val() >> 2) << 2;
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 1.into();
            self.state.d.next = SolveState::Run;
            self.running.d.next = true;
        }
        if self.abort.val() {
            self.state.d.next = SolveState::Clear;
            self.running.d.next = false;
            self.clearing.d.next = true;
            // Out of a solve, the table and copies read row 0 (the first
            // line a solve fetches): the fetched index, the rows' phase.
            self.row_phase.d.next = true;
            self.fetched_index.d.next = 0.into();
            self.clear_address.d.next = 0.into();
            self.clear_last.d.next = false;
            self.start_pending.d.next = false;
            self.picked.d.next = false;
            self.fetched.d.next = false;
            // Nothing of the old board goes on, and no verdict comes out.
            // The lines left in `todo` are dropped the next cycle as a
            // contradiction drops them (a line without survivors in stage
            // U): the picker would otherwise fetch them and the filter run
            // them against the cleared memory and the new board's store.
            // (Clearing `todo` here as well put one more term before its
            // register and cost the DNF bitstream 6 MHz.)
            self.done_q.d.next = false;
            self.u_valid.d.next = true;
            self.u_empty.d.next = true;
            self.u_write.d.next = false;
            self.filter.flush.next = true;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
