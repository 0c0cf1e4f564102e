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
//! The solver is the pipeline of a visit and the decisions around it,
//! joined to four blocks: the option store (`option_store.rs`), the line
//! filter (`line_filter.rs`), the board memory (`board_memory.rs`: Known
//! and Value twice, a row copy and a column copy, and the cell writer that
//! keeps the crossing copy up to date behind the visits) and the phase
//! schedule (`phase_schedule.rs`: the dirty lines, this phase's lines to
//! do and the line picked next).
//!
//! # A phase, cycle by cycle
//!
//! * pick: the lowest line left to do (registered, one-hot);
//! * fetch: its table entry and its word are read (they stay on the RAM
//!   outputs until taken);
//! * take: the line filter takes them in the cycle its previous line reads
//!   its last pair, so lines follow with no gap;
//! * filter: read, register, compare, write back (4 stages), then
//! * U: the new Known and Value, the cells newly fixed (registered), and
//! * commit: write the word, the line's count and the cells for the cell
//!   writer; dirty the crossing lines.
//!
//! The phase ends when nothing is left in flight and the writer is idle;
//! that cycle decides and picks the next phase's first line.

use crate::common::params::{COUNT_BITS, CYCLE_BITS, DIM_BITS, FIFO_ADDR_BITS, LINE_ID_BITS, MAX_LINE};
use crate::dnf::board_memory::BoardMemory;
use crate::dnf::line_filter::LineFilter;
use crate::dnf::option_store::{OptionStore, PairPort, TABLE_BITS};
use crate::dnf::phase_schedule::PhaseSchedule;
use crate::dnf::verdict::Verdict;
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

#[derive(LogicBlock, Default)]
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
    // The blocks in this order: it is the emitted netlist's, on which
    // yosys's mapping and nextpnr's placement depend, and of the orders
    // tried it met 100 MHz best (README, "Two images, one flash").
    filter: LineFilter,
    schedule: PhaseSchedule,
    verdict: Verdict,
    store: OptionStore,
    memory: BoardMemory,
    state: DFF<SolveState>,
    start_pending: DFF<Bit>,
    // The board, registered at the start: the cells of a row (bit c for
    // c < columns) and of a column (bit r for r < rows).
    row_phase: DFF<Bit>,
    row_cells: DFF<Bits<MAX_LINE>>,
    column_cells: DFF<Bits<MAX_LINE>>,
    line_mask: DFF<Bits<MAX_LINE>>,
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
    /// Whether each byte of `u_changed` has a bit (one 32-bit OR before
    /// the register was a critical path of the DNF image), and their OR.
    u_changed_bytes: DFF<Bits<4>>,
    changed_any: Signal<Local, Bit>,
    new_changed: Signal<Local, Bits<MAX_LINE>>,
    new_changed_bytes: Signal<Local, Bits<4>>,
    u_full: DFF<Bit>,
    u_empty: DFF<Bit>,
    // A line with survivors is in stage U (`u_valid`, not `u_empty`): its
    // word is written, and its newly fixed cells (registered, so that the
    // copies' write ports are a 2-input choice from registers).
    u_write: DFF<Bit>,
    // High exactly while `state` is Run (a flag of its own: the cycle that
    // decides then reads three registers, not the state's encoding; with
    // the compare, the decision missed 100 MHz at some nextpnr seeds).
    running: DFF<Bit>,
    // High exactly while `state` is not Clear (a flag of its own, as
    // `running`: a start, which loads most of the solver's registers, then
    // comes from four registers through one LUT, not from the state's
    // encoding).
    cleared: DFF<Bit>,
    in_flight: DFF<Bit>,
    // Combinational helpers.
    start_now: Signal<Local, Bit>,
    fetch: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    // Running, with nothing in flight and the writer idle: the phase is over.
    phase_over: Signal<Local, Bit>,
    new_known: Signal<Local, Bits<MAX_LINE>>,
    table_address: Signal<Local, Bits<TABLE_BITS>>,
    /// The fetched line waits for the filter.
    waiting: Signal<Local, Bit>,
    start_row_cells: Signal<Local, Bits<MAX_LINE>>,
    start_column_cells: Signal<Local, Bits<MAX_LINE>>,
}

impl Logic for Solver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            start_pending,
            row_phase,
            row_cells,
            column_cells,
            line_mask,
            fetched,
            fetched_index,
            u_valid,
            u_index,
            u_base,
            u_survivors,
            u_known,
            u_value,
            u_changed,
            u_changed_bytes,
            u_full,
            u_empty,
            u_write,
            running,
            cleared,
            in_flight
        );
        self.store.clock.next = self.clock.val();
        self.filter.clock.next = self.clock.val();
        self.memory.clock.next = self.clock.val();
        self.schedule.clock.next = self.clock.val();
        self.verdict.clock.next = self.clock.val();

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

        // Pick (the schedule), fetch, take.
        self.schedule.row_phase.next = self.row_phase.q.val();
        self.take.next = self.fetched.q.val() & self.filter.free.val();
        self.fetch.next = self.schedule.picked.val() & (!self.fetched.q.val() | self.take.val());
        self.schedule.fetch.next = self.fetch.val();
        // The picked line's words as it is fetched; the fetched line's again
        // while it waits for the filter (they are read every cycle, so that
        // they take the cell writer's writes), and outside Run (the reply's
        // rows). Chosen by `running`, `fetched` and the filter's `free`, not
        // by `fetch`, which adds `picked`: that choice was a critical path
        // of the DNF image into the line table's address. When the picked
        // line's address is there but not fetched, nothing reads it.
        self.waiting.next = self.fetched.q.val() & !self.filter.free.val();
        self.table_address.next = bit_cast::<TABLE_BITS, 5>(self.schedule.pick_index.val());
        if !self.running.q.val() | self.waiting.val() {
            self.table_address.next = bit_cast::<TABLE_BITS, 5>(self.fetched_index.q.val());
        }
        self.table_address.next = self.table_address.val().replace_bit(5, !self.row_phase.q.val());
        self.store.table_read_address.next = self.table_address.val();
        self.store.table_read_used.next = self.fetch.val() | self.waiting.val();
        self.memory.row_phase.next = self.row_phase.q.val();
        self.memory.read_address.next = self.table_address.val().get_bits::<5>(0);
        self.memory.read_used.next = self.fetch.val() | self.waiting.val();
        if self.fetch.val() {
            self.fetched.d.next = true;
            self.fetched_index.d.next = self.schedule.pick_index.val();
        } else if self.take.val() {
            self.fetched.d.next = false;
        }
        self.filter.take.next = self.take.val();
        self.filter.take_index.next = self.fetched_index.q.val();
        self.filter.take_base.next = self.store.table_base.val();
        self.filter.take_count.next = self.store.table_count.val();
        self.filter.take_known.next = self.memory.known.val();
        self.filter.take_value.next = self.memory.value.val();
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
        self.new_changed.next = self.new_known.val() & !self.filter.result_known.val();
        self.u_changed.d.next = self.new_changed.val();
        self.new_changed_bytes.next = 0.into();
        for b in 0..4 {
            self.new_changed_bytes.next = self
                .new_changed_bytes
                .val()
                .replace_bit(b, self.new_changed.val().get_bits::<8>(8 * b).any());
        }
        self.u_changed_bytes.d.next = self.new_changed_bytes.val();
        self.changed_any.next = self.u_changed_bytes.q.val().any();
        self.u_full.d.next = self.new_known.val() == self.line_mask.q.val();
        self.u_empty.d.next = self.filter.result_empty.val();
        self.u_write.d.next = self.filter.result.val() & !self.filter.result_empty.val();

        // Commit: the line's word (into its own copy), its count, its newly
        // fixed cells (into the other copy), the dirt they make, and the
        // verdict's part (a contradiction, a full row).
        self.store.table_write.next = false;
        self.store.table_write_address.next =
            bit_cast::<TABLE_BITS, 5>(self.u_index.q.val()).replace_bit(5, !self.row_phase.q.val());
        self.store.table_write_base.next = self.u_base.q.val();
        self.store.table_write_count.next = self.u_survivors.q.val();
        self.memory.line_write.next = self.u_write.q.val();
        self.memory.line.next = self.u_index.q.val();
        self.memory.line_known.next = self.u_known.q.val();
        self.memory.line_value.next = self.u_value.q.val();
        self.memory.line_changed.next = self.u_changed.q.val();
        self.schedule.visited.next = self.u_valid.q.val();
        self.schedule.empty.next = self.u_empty.q.val();
        self.schedule.changed.next = self.u_changed.q.val();
        self.schedule.changed_any.next = self.changed_any.val();
        self.verdict.row_phase.next = self.row_phase.q.val();
        self.verdict.visited.next = self.u_valid.q.val();
        self.verdict.empty.next = self.u_empty.q.val();
        self.verdict.full.next = self.u_full.q.val();
        self.verdict.line.next = self.u_index.q.val();
        if self.u_valid.q.val() {
            if self.u_empty.q.val() {
                // No option left: stop here, dropping the lines after it
                // (the schedule drops those to do).
                self.filter.flush.next = true;
                self.fetched.d.next = false;
                self.u_valid.d.next = false;
                self.u_write.d.next = false;
            } else {
                self.store.table_write.next = true;
            }
        }
        self.memory.cells_write.next = self.u_write.q.val() & self.changed_any.val();

        // Anything in flight now is still in flight next cycle, or has
        // become a commit (a line's last pair, W, becomes U), or has been
        // flushed; a new phase or a start puts a line in flight. So
        // `in_flight` (registered) and the writer's `busy` (registered) say
        // whether the phase is still going: with `running`, the decision
        // reads three registers.
        self.in_flight.d.next = (self.schedule.picked.val() | self.fetched.q.val() | self.filter.busy.val())
            & !self.filter.flush.val();
        self.phase_over.next = self.running.q.val() & !self.in_flight.q.val() & !self.memory.busy.val();

        self.busy.next = (self.state.q.val() == SolveState::Run)
            | (self.state.q.val() == SolveState::Finish)
            | self.start_pending.q.val();
        self.done.next = self.verdict.done.val();
        self.outcome.next = self.verdict.outcome.val();
        self.contradiction_line.next = self.verdict.contradiction_line.val();
        self.cycles.next = self.verdict.cycles.val();
        self.passes.next = self.verdict.passes.val();
        self.top_known.next = self.memory.top_known.val();
        self.top_value.next = self.memory.top_value.val();
        self.verdict.counting.next =
            (self.state.q.val() == SolveState::Run) | (self.state.q.val() == SolveState::Finish);
        self.verdict.finish.next = self.state.q.val() == SolveState::Finish;
        self.verdict.column_cells.next = self.column_cells.q.val();
        // A start: a new board's, or one that came while clearing, at the
        // clear's end.
        self.start_now.next = self.start.val();
        if !self.cleared.q.val() {
            self.start_now.next = self.start_pending.q.val() & self.memory.clear_last.val();
        }
        // A phase began: the line mask is its kind's (and a rows' phase is
        // a pass, for the verdict).
        self.verdict.began.next = self.schedule.began.val();
        if self.schedule.began.val() {
            if self.row_phase.q.val() {
                self.line_mask.d.next = self.row_cells.q.val();
            } else {
                self.line_mask.d.next = self.column_cells.q.val();
            }
        }

        match self.state.q.val() {
            SolveState::Clear => {
                if self.start.val() {
                    self.start_pending.d.next = true;
                }
                if self.memory.clear_last.val() {
                    self.state.d.next = SolveState::Idle;
                    self.cleared.d.next = true;
                }
            }
            SolveState::Idle => {}
            SolveState::Run => {}
            SolveState::Finish => {
                // The verdict gives the outcome.
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
        // follows in the cycle after (the schedule's `began`, Finish).
        // Outside the match: `running` is the state, and the decision waits
        // on no compare.
        self.schedule.advance.next = false;
        if self.phase_over.val() {
            if self.verdict.contradiction.val() | !self.schedule.next_any.val() {
                // Row 0 for the reply.
                self.fetched_index.d.next = 0.into();
                self.state.d.next = SolveState::Finish;
                self.running.d.next = false;
            } else {
                self.row_phase.d.next = !self.row_phase.q.val();
                self.schedule.advance.next = true;
                self.in_flight.d.next = true;
            }
        }
        // Out of a solve the row copy is read, for the reply.
        self.memory.read_rows.next =
            (self.state.q.val() == SolveState::Finish) | (self.state.q.val() == SolveState::Done);
        // Rows are numbered by a column's cells and columns by a row's.
        self.schedule.start.next = self.start_now.val();
        self.schedule.start_rows.next = self.start_column_cells.val();
        self.schedule.start_columns.next = self.start_row_cells.val();
        self.verdict.start.next = self.start_now.val();
        self.verdict.rows.next = self.rows.val();
        if self.start_now.val() {
            self.start_pending.d.next = false;
            self.row_phase.d.next = true;
            self.row_cells.d.next = self.start_row_cells.val();
            self.column_cells.d.next = self.start_column_cells.val();
            self.line_mask.d.next = self.start_row_cells.val();
            // Row 0 is fetched now (out of a solve the read addresses are
            // row 0's); row 1, if any, is picked (the schedule).
            self.fetched.d.next = true;
            self.in_flight.d.next = true;
            self.fetched_index.d.next = 0.into();
            self.state.d.next = SolveState::Run;
            self.running.d.next = true;
        }
        // An abort clears the board memory (32 cycles) and the store.
        self.memory.clear.next = self.abort.val();
        self.schedule.abort.next = self.abort.val();
        self.verdict.abort.next = self.abort.val();
        if self.abort.val() {
            self.state.d.next = SolveState::Clear;
            self.running.d.next = false;
            self.cleared.d.next = false;
            // Out of a solve, the table and copies read row 0 (the first
            // line a solve fetches): the fetched index, the rows' phase.
            self.row_phase.d.next = true;
            self.fetched_index.d.next = 0.into();
            self.start_pending.d.next = false;
            self.fetched.d.next = false;
            // Nothing of the old board goes on, and no verdict comes out.
            // The lines left to do are dropped the next cycle as a
            // contradiction drops them (a line without survivors in stage
            // U): the picker would otherwise fetch them and the filter run
            // them against the cleared memory and the new board's store.
            // (Clearing them here as well put one more term before their
            // register and cost the DNF bitstream 6 MHz.)
            self.u_valid.d.next = true;
            self.u_empty.d.next = true;
            self.u_write.d.next = false;
            self.filter.flush.next = true;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
