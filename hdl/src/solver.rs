//! The solver: holds Known and Assigned for every cell and filters each
//! line's options against them, one option per clock cycle.
//!
//! Lines are visited in a fixed cycle (rows, then columns). A visit reads the
//! line's options from the FIFO head; an option survives when it agrees with
//! every known cell, `((option ^ assigned) & known) == 0`, and goes back to
//! the FIFO tail. Cells on which all survivors agree become known. The solve
//! ends with a contradiction when a line keeps no option, and otherwise once
//! a whole cycle of m + n visits in a row fixed nothing: solved if every cell
//! is known, stalled if not. `model.rs` is the same algorithm in plain Rust.
//!
//! The grid is a square of MAX_LINE × MAX_LINE cells that rotates instead of
//! being addressed: the line being visited is always row 0 (row phase) or
//! column 0 (column phase), so no wide multiplexers sit in the datapath.
//! After a row the grid rotates up by one row, after a column left by one
//! column; padding rotations at the end of each phase bring it back.
//!
//! Pipeline inside a line: cycle t reads the FIFO, t+1 compares the word
//! (registered), t+2 writes the survivor back and folds it into the AND/OR
//! accumulators. A visit of a line with K options takes K + 6 cycles.

use crate::constant;
use crate::params::{COUNT_BITS, CYCLE_BITS, DIM_BITS, LINE_ID_BITS, MAX_LINE};
use crate::protocol::status::outcome;
use rust_hdl::prelude::*;

const LAST: usize = MAX_LINE - 1;
const _: () = assert!(MAX_LINE == 32, "the grid rotation writes bit 31");

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum SolveState {
    Idle,
    /// Ask the count RAM for the line's option count.
    Fetch,
    /// Take the count and the line's known cells.
    Setup,
    /// Read the line's options, one per cycle, and let the pipeline drain.
    Stream,
    /// Fix the cells all survivors agree on; rotate the grid.
    Update,
    /// Next line, or the end of the solve.
    Advance,
    /// Padding rotations at the end of a phase.
    PadRows,
    PadColumns,
    /// After the verdict: rotate the grid back to its home position.
    Realign,
    /// Verdict and grid available; the reply reads it row by row.
    Done,
}

#[derive(LogicBlock)]
pub struct Solver {
    pub clock: Signal<In, Clock>,
    /// Stop whatever is going on (new board, query or reset).
    pub abort: Signal<In, Bit>,
    /// Pulse: the FIFO and counts hold a board of `rows` × `columns`; solve it.
    pub start: Signal<In, Bit>,
    pub rows: Signal<In, Bits<DIM_BITS>>,
    pub columns: Signal<In, Bits<DIM_BITS>>,
    /// FIFO read port (word one cycle after `fifo_read`) and write port.
    pub fifo_read: Signal<Out, Bit>,
    pub fifo_data: Signal<In, Bits<MAX_LINE>>,
    pub fifo_write: Signal<Out, Bit>,
    pub fifo_write_data: Signal<Out, Bits<MAX_LINE>>,
    /// Count RAM: read port (data one cycle later) and write port.
    /// The count of `count_read_line` is read (used the cycle after).
    pub count_read: Signal<Out, Bit>,
    pub count_read_line: Signal<Out, Bits<LINE_ID_BITS>>,
    pub count_read_data: Signal<In, Bits<COUNT_BITS>>,
    pub count_write: Signal<Out, Bit>,
    pub count_write_line: Signal<Out, Bits<LINE_ID_BITS>>,
    pub count_write_data: Signal<Out, Bits<COUNT_BITS>>,
    /// High from `start` to the verdict.
    pub busy: Signal<Out, Bit>,
    /// Pulse: the verdict is ready.
    pub done: Signal<Out, Bit>,
    pub outcome: Signal<Out, Bits<3>>,
    /// For a contradiction, the line that lost all its options.
    pub contradiction_line: Signal<Out, Bits<LINE_ID_BITS>>,
    pub cycles: Signal<Out, Bits<CYCLE_BITS>>,
    pub passes: Signal<Out, Bits<8>>,
    /// After `done`: the top row of the grid (bit c = column c), and a
    /// request to rotate the next row up (it is there two cycles later).
    pub top_known: Signal<Out, Bits<MAX_LINE>>,
    pub top_value: Signal<Out, Bits<MAX_LINE>>,
    pub next_row: Signal<In, Bit>,
    known: [DFF<Bits<MAX_LINE>>; MAX_LINE],
    value: [DFF<Bits<MAX_LINE>>; MAX_LINE],
    state: DFF<SolveState>,
    line: DFF<Bits<LINE_ID_BITS>>,
    remaining: DFF<Bits<COUNT_BITS>>,
    // remaining != 0, kept in a register: it gates the FIFO read.
    more: DFF<Bit>,
    // survivors != 0, kept in a register (it selects the line's update).
    any_survivor: DFF<Bit>,
    survivors: DFF<Bits<COUNT_BITS>>,
    line_known: DFF<Bits<MAX_LINE>>,
    line_value: DFF<Bits<MAX_LINE>>,
    line_mask: DFF<Bits<MAX_LINE>>,
    all: DFF<Bits<MAX_LINE>>,
    any: DFF<Bits<MAX_LINE>>,
    read_valid: DFF<Bit>,
    compare_valid: DFF<Bit>,
    compare_ok: DFF<Bit>,
    compare_word: DFF<Bits<MAX_LINE>>,
    quiet: DFF<Bits<LINE_ID_BITS>>,
    window_full: DFF<Bit>,
    pad: DFF<Bits<DIM_BITS>>,
    row_offset: DFF<Bits<5>>,
    column_offset: DFF<Bits<5>>,
    outcome_q: DFF<Bits<3>>,
    cycles_q: DFF<Bits<CYCLE_BITS>>,
    passes_q: DFF<Bits<8>>,
    done_q: DFF<Bit>,
    // Combinational helpers.
    column_known: Signal<Local, Bits<MAX_LINE>>,
    column_value: Signal<Local, Bits<MAX_LINE>>,
    new_known: Signal<Local, Bits<MAX_LINE>>,
    start_row_mask: Signal<Local, Bits<MAX_LINE>>,
    start_column_mask: Signal<Local, Bits<MAX_LINE>>,
    new_value: Signal<Local, Bits<MAX_LINE>>,
    // Board constants, registered at `start` to keep them off the datapath.
    row_phase: DFF<Bit>,
    row_mask: DFF<Bits<MAX_LINE>>,
    column_mask: DFF<Bits<MAX_LINE>>,
    last_row: DFF<Bits<LINE_ID_BITS>>,
    last_line: DFF<Bits<LINE_ID_BITS>>,
    total_lines: DFF<Bits<LINE_ID_BITS>>,
    row_pad: DFF<Bits<DIM_BITS>>,
    column_pad: DFF<Bits<DIM_BITS>>,
    // The visit's verdict on its line, registered a cycle ahead of Update.
    line_changed: DFF<Bit>,
    line_full: DFF<Bit>,
    // Grid commands, registered: they take effect a cycle after the state
    // machine issues them, so the 2 048 grid flops see a short enable path.
    clear_grid: DFF<Bit>,
    insert_known: DFF<Bits<MAX_LINE>>,
    insert_value: DFF<Bits<MAX_LINE>>,
    rotate_up: DFF<Bit>,
    rotate_left: DFF<Bit>,
    insert_row: DFF<Bit>,
    insert_column: DFF<Bit>,
    ones: Constant<Bits<MAX_LINE>>,
    grid_size: Constant<Bits<DIM_BITS>>,
    solved: Constant<Bits<3>>,
    contradiction: Constant<Bits<3>>,
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
            fifo_read: Default::default(),
            fifo_data: Default::default(),
            fifo_write: Default::default(),
            fifo_write_data: Default::default(),
            count_read: Default::default(),
            count_read_line: Default::default(),
            count_read_data: Default::default(),
            count_write: Default::default(),
            count_write_line: Default::default(),
            count_write_data: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            outcome: Default::default(),
            contradiction_line: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            top_known: Default::default(),
            top_value: Default::default(),
            next_row: Default::default(),
            known: array_init::array_init(|_| Default::default()),
            value: array_init::array_init(|_| Default::default()),
            state: Default::default(),
            line: Default::default(),
            remaining: Default::default(),
            more: Default::default(),
            any_survivor: Default::default(),
            survivors: Default::default(),
            line_known: Default::default(),
            line_value: Default::default(),
            line_mask: Default::default(),
            all: Default::default(),
            any: Default::default(),
            read_valid: Default::default(),
            compare_valid: Default::default(),
            compare_ok: Default::default(),
            compare_word: Default::default(),
            quiet: Default::default(),
            window_full: Default::default(),
            pad: Default::default(),
            row_offset: Default::default(),
            column_offset: Default::default(),
            outcome_q: Default::default(),
            cycles_q: Default::default(),
            passes_q: Default::default(),
            done_q: Default::default(),
            column_known: Default::default(),
            column_value: Default::default(),
            new_known: Default::default(),
            start_row_mask: Default::default(),
            start_column_mask: Default::default(),
            new_value: Default::default(),
            row_phase: Default::default(),
            row_mask: Default::default(),
            column_mask: Default::default(),
            last_row: Default::default(),
            last_line: Default::default(),
            total_lines: Default::default(),
            row_pad: Default::default(),
            column_pad: Default::default(),
            line_changed: Default::default(),
            line_full: Default::default(),
            clear_grid: Default::default(),
            insert_known: Default::default(),
            insert_value: Default::default(),
            rotate_up: Default::default(),
            rotate_left: Default::default(),
            insert_row: Default::default(),
            insert_column: Default::default(),
            ones: constant(u32::MAX),
            grid_size: constant(MAX_LINE as u64),
            solved: constant(outcome::SOLVED),
            contradiction: constant(outcome::CONTRADICTION),
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
            line,
            remaining,
            more,
            any_survivor,
            survivors,
            line_known,
            line_value,
            line_mask,
            all,
            any,
            read_valid,
            compare_valid,
            compare_ok,
            compare_word,
            quiet,
            window_full,
            pad,
            row_offset,
            column_offset,
            outcome_q,
            cycles_q,
            passes_q,
            done_q,
            clear_grid,
            insert_known,
            insert_value,
            rotate_up,
            rotate_left,
            insert_row,
            insert_column,
            row_phase,
            row_mask,
            column_mask,
            last_row,
            last_line,
            total_lines,
            row_pad,
            column_pad,
            line_changed,
            line_full
        );
        for i in 0..MAX_LINE {
            self.known[i].clock.next = self.clock.val();
            self.value[i].clock.next = self.clock.val();
            self.known[i].d.next = self.known[i].q.val();
            self.value[i].d.next = self.value[i].q.val();
        }
        // Column 0 of the grid, as a line word (bit r = row r).
        self.column_known.next = 0.into();
        self.column_value.next = 0.into();
        for i in 0..MAX_LINE {
            self.column_known.next = self
                .column_known
                .val()
                .replace_bit(i, self.known[i].q.val().get_bit(0));
            self.column_value.next = self
                .column_value
                .val()
                .replace_bit(i, self.value[i].q.val().get_bit(0));
        }
        // The line masks of this board: bit i is set for i < length.
        self.start_row_mask.next = 0.into();
        self.start_column_mask.next = 0.into();
        for i in 0..MAX_LINE {
            self.start_row_mask.next = self
                .start_row_mask
                .val()
                .replace_bit(i, self.columns.val().index() > i);
            self.start_column_mask.next = self
                .start_column_mask
                .val()
                .replace_bit(i, self.rows.val().index() > i);
        }
        self.new_known.next = (self.all.q.val() | !self.any.q.val()) & self.line_mask.q.val();
        self.new_value.next = self.all.q.val() & self.line_mask.q.val();
        if !self.any_survivor.q.val() {
            // A contradiction: the line goes back unchanged.
            self.new_known.next = self.line_known.q.val();
            self.new_value.next = self.line_value.q.val();
        }
        self.line_changed.d.next = self.new_known.val() != self.line_known.q.val();
        self.line_full.d.next = self.new_known.val() == self.line_mask.q.val();

        self.busy.next = (self.state.q.val() != SolveState::Idle) & (self.state.q.val() != SolveState::Done);
        self.done.next = self.done_q.q.val();
        self.outcome.next = self.outcome_q.q.val();
        self.contradiction_line.next = self.line.q.val();
        self.cycles.next = self.cycles_q.q.val();
        self.passes.next = self.passes_q.q.val();
        self.top_known.next = self.known[0].q.val();
        self.top_value.next = self.value[0].q.val();
        self.count_read.next = false;
        self.count_read_line.next = self.line.q.val();
        self.count_write_line.next = self.line.q.val();
        self.count_write_data.next = self.survivors.q.val();
        self.count_write.next = false;
        self.fifo_read.next = false;
        self.rotate_up.d.next = false;
        self.rotate_left.d.next = false;
        self.insert_row.d.next = false;
        self.insert_column.d.next = false;
        self.done_q.d.next = false;
        if self.busy.val() {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
        }

        match self.state.q.val() {
            SolveState::Idle => {}
            SolveState::Fetch => {
                self.count_read.next = true;
                self.state.d.next = SolveState::Setup;
            }
            SolveState::Setup => {
                self.remaining.d.next = self.count_read_data.val();
                self.more.d.next = self.count_read_data.val() != 0;
                self.survivors.d.next = 0.into();
                self.any_survivor.d.next = false;
                self.all.d.next = self.ones.val();
                self.any.d.next = 0.into();
                if self.row_phase.q.val() {
                    self.line_known.d.next = self.known[0].q.val();
                    self.line_value.d.next = self.value[0].q.val();
                    self.line_mask.d.next = self.row_mask.q.val();
                } else {
                    self.line_known.d.next = self.column_known.val();
                    self.line_value.d.next = self.column_value.val();
                    self.line_mask.d.next = self.column_mask.q.val();
                }
                self.state.d.next = SolveState::Stream;
            }
            SolveState::Stream => {
                if self.more.q.val() {
                    self.fifo_read.next = true;
                    self.remaining.d.next = self.remaining.q.val() - 1;
                    self.more.d.next = self.remaining.q.val() != 1;
                } else if !self.read_valid.q.val() & !self.compare_valid.q.val() {
                    self.state.d.next = SolveState::Update;
                }
            }
            SolveState::Update => {
                self.count_write.next = true;
                self.state.d.next = SolveState::Advance;
                if self.line_changed.q.val() {
                    self.quiet.d.next = 0.into();
                    self.window_full.d.next = true;
                } else {
                    self.quiet.d.next = self.quiet.q.val() + 1;
                    self.window_full.d.next = self.window_full.q.val() & self.line_full.q.val();
                }
                if self.row_phase.q.val() {
                    // Row 0 leaves at the top and comes back, updated, at the bottom.
                    self.rotate_up.d.next = true;
                    self.insert_row.d.next = true;
                    self.row_offset.d.next = self.row_offset.q.val() + 1;
                } else {
                    // Column 0 leaves on the left and comes back, updated, on the right.
                    self.rotate_left.d.next = true;
                    self.insert_column.d.next = true;
                    self.column_offset.d.next = self.column_offset.q.val() + 1;
                }
                if !self.any_survivor.q.val() {
                    self.outcome_q.d.next = self.contradiction.val();
                    self.state.d.next = SolveState::Realign;
                }
            }
            SolveState::Advance => {
                self.line.d.next = self.line.q.val() + 1;
                self.state.d.next = SolveState::Fetch;
                if self.quiet.q.val() == self.total_lines.q.val() {
                    self.state.d.next = SolveState::Realign;
                    if self.window_full.q.val() {
                        self.outcome_q.d.next = self.solved.val();
                    } else {
                        self.outcome_q.d.next = self.stalled.val();
                    }
                } else if self.line.q.val() == self.last_row.q.val() {
                    self.row_phase.d.next = false;
                    self.pad.d.next = self.row_pad.q.val();
                    self.state.d.next = SolveState::PadRows;
                } else if self.line.q.val() == self.last_line.q.val() {
                    self.line.d.next = 0.into();
                    self.row_phase.d.next = true;
                    if self.passes_q.q.val() != 255 {
                        self.passes_q.d.next = self.passes_q.q.val() + 1;
                    }
                    self.pad.d.next = self.column_pad.q.val();
                    self.state.d.next = SolveState::PadColumns;
                }
            }
            SolveState::PadRows => {
                if self.pad.q.val() == 0 {
                    self.state.d.next = SolveState::Fetch;
                } else {
                    self.pad.d.next = self.pad.q.val() - 1;
                    self.rotate_up.d.next = true;
                    self.row_offset.d.next = self.row_offset.q.val() + 1;
                }
            }
            SolveState::PadColumns => {
                if self.pad.q.val() == 0 {
                    self.state.d.next = SolveState::Fetch;
                } else {
                    self.pad.d.next = self.pad.q.val() - 1;
                    self.rotate_left.d.next = true;
                    self.column_offset.d.next = self.column_offset.q.val() + 1;
                }
            }
            SolveState::Realign => {
                if self.row_offset.q.val() != 0 {
                    self.rotate_up.d.next = true;
                    self.row_offset.d.next = self.row_offset.q.val() + 1;
                } else if self.column_offset.q.val() != 0 {
                    self.rotate_left.d.next = true;
                    self.column_offset.d.next = self.column_offset.q.val() + 1;
                } else {
                    self.done_q.d.next = true;
                    self.state.d.next = SolveState::Done;
                }
            }
            SolveState::Done => {
                if self.next_row.val() {
                    self.rotate_up.d.next = true;
                }
            }
            _ => {
                self.state.d.next = SolveState::Idle;
            }
        }
        // The option pipeline runs in every state; only Stream feeds it
        // (after the state machine, which decides `fifo_read`).
        self.read_valid.d.next = self.fifo_read.val();
        self.compare_valid.d.next = self.read_valid.q.val();
        self.compare_word.d.next = self.fifo_data.val();
        self.compare_ok.d.next =
            ((self.fifo_data.val() ^ self.line_value.q.val()) & self.line_known.q.val()) == 0;
        self.fifo_write.next = self.compare_valid.q.val() & self.compare_ok.q.val();
        self.fifo_write_data.next = self.compare_word.q.val();
        if self.fifo_write.val() {
            self.all.d.next = self.all.q.val() & self.compare_word.q.val();
            self.any.d.next = self.any.q.val() | self.compare_word.q.val();
            self.survivors.d.next = self.survivors.q.val() + 1;
            self.any_survivor.d.next = true;
        }

        // Grid moves: the rotations, and the visited line's update entering
        // at the far end (MAX_LINE is 32: bit 31 is the far column).
        if self.rotate_up.q.val() {
            for i in 0..LAST {
                self.known[i].d.next = self.known[i + 1].q.val();
                self.value[i].d.next = self.value[i + 1].q.val();
            }
            self.known[31].d.next = self.known[0].q.val();
            self.value[31].d.next = self.value[0].q.val();
            if self.insert_row.q.val() {
                self.known[31].d.next = self.insert_known.q.val();
                self.value[31].d.next = self.insert_value.q.val();
            }
        }
        if self.rotate_left.q.val() {
            for i in 0..MAX_LINE {
                self.known[i].d.next =
                    (self.known[i].q.val() >> 1).replace_bit(31, self.known[i].q.val().get_bit(0));
                self.value[i].d.next =
                    (self.value[i].q.val() >> 1).replace_bit(31, self.value[i].q.val().get_bit(0));
                if self.insert_column.q.val() {
                    self.known[i].d.next =
                        (self.known[i].q.val() >> 1).replace_bit(31, self.insert_known.q.val().get_bit(i));
                    self.value[i].d.next =
                        (self.value[i].q.val() >> 1).replace_bit(31, self.insert_value.q.val().get_bit(i));
                }
            }
        }
        if self.clear_grid.q.val() {
            for i in 0..MAX_LINE {
                self.known[i].d.next = 0.into();
                self.value[i].d.next = 0.into();
            }
        }
        self.clear_grid.d.next = self.start.val();
        self.insert_known.d.next = self.new_known.val();
        self.insert_value.d.next = self.new_value.val();
        if self.start.val() {
            self.row_phase.d.next = true;
            self.row_mask.d.next = self.start_row_mask.val();
            self.column_mask.d.next = self.start_column_mask.val();
            self.last_row.d.next = bit_cast::<LINE_ID_BITS, DIM_BITS>(self.rows.val()) - 1;
            self.total_lines.d.next = bit_cast::<LINE_ID_BITS, DIM_BITS>(self.rows.val())
                + bit_cast::<LINE_ID_BITS, DIM_BITS>(self.columns.val());
            self.last_line.d.next = bit_cast::<LINE_ID_BITS, DIM_BITS>(self.rows.val())
                + bit_cast::<LINE_ID_BITS, DIM_BITS>(self.columns.val())
                - 1;
            self.row_pad.d.next = self.grid_size.val() - self.rows.val();
            self.column_pad.d.next = self.grid_size.val() - self.columns.val();
            self.line.d.next = 0.into();
            self.quiet.d.next = 0.into();
            self.window_full.d.next = true;
            self.row_offset.d.next = 0.into();
            self.column_offset.d.next = 0.into();
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 1.into();
            self.state.d.next = SolveState::Fetch;
        }
        if self.abort.val() {
            self.state.d.next = SolveState::Idle;
            // Words still in the pipeline belong to the abandoned board: they
            // must not reach the FIFO the parser is about to refill.
            self.read_valid.d.next = false;
            self.compare_valid.d.next = false;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bench::{tick, yosys_check};
    use crate::model::{self, Verdict};
    use crate::option_fifo::OptionFifo;

    /// The solver wired to a real option FIFO; the test loads the FIFO.
    #[derive(LogicBlock)]
    struct Bench {
        clock: Signal<In, Clock>,
        load: Signal<In, Bit>,
        load_word: Signal<In, Bits<MAX_LINE>>,
        load_count: Signal<In, Bit>,
        load_line: Signal<In, Bits<LINE_ID_BITS>>,
        load_count_value: Signal<In, Bits<COUNT_BITS>>,
        fifo: OptionFifo,
        solver: Solver,
    }

    impl Logic for Bench {
        #[hdl_gen]
        fn update(&mut self) {
            self.fifo.clock.next = self.clock.val();
            self.solver.clock.next = self.clock.val();
            self.fifo.clear.next = self.solver.abort.val();
            self.fifo.write.next = self.load.val() | self.solver.fifo_write.val();
            self.fifo.write_data.next = self.load_word.val();
            if self.solver.fifo_write.val() {
                self.fifo.write_data.next = self.solver.fifo_write_data.val();
            }
            self.fifo.read.next = self.solver.fifo_read.val();
            self.solver.fifo_data.next = self.fifo.read_data.val();
            self.fifo.count_read.next = self.solver.count_read.val();
            self.fifo.count_read_line.next = self.solver.count_read_line.val();
            self.solver.count_read_data.next = self.fifo.count_read_data.val();
            self.fifo.count_write.next = self.load_count.val() | self.solver.count_write.val();
            self.fifo.count_write_line.next = self.load_line.val();
            self.fifo.count_write_data.next = self.load_count_value.val();
            if self.solver.count_write.val() {
                self.fifo.count_write_line.next = self.solver.count_write_line.val();
                self.fifo.count_write_data.next = self.solver.count_write_data.val();
            }
        }
    }

    /// What the solver produced for one board.
    #[derive(Debug, PartialEq)]
    pub(crate) struct Run {
        pub outcome: u8,
        pub detail: u8,
        pub cells: Vec<Option<bool>>,
        pub passes: u8,
        pub cycles: u64,
    }

    pub(crate) fn run(rows: usize, columns: usize, lines: &[Vec<u64>]) -> Run {
        let mut b = Bench {
            clock: Default::default(),
            load: Default::default(),
            load_word: Default::default(),
            load_count: Default::default(),
            load_line: Default::default(),
            load_count_value: Default::default(),
            fifo: Default::default(),
            solver: Default::default(),
        };
        b.connect_all();
        b.solver.abort.next = true;
        tick(&mut b, |b| &mut b.clock);
        b.solver.abort.next = false;
        for (line, options) in lines.iter().enumerate() {
            for &o in options {
                b.load.next = true;
                b.load_word.next = o.into();
                tick(&mut b, |b| &mut b.clock);
            }
            b.load.next = false;
            b.load_count.next = true;
            b.load_line.next = (line as u64).into();
            b.load_count_value.next = (options.len() as u64).into();
            tick(&mut b, |b| &mut b.clock);
            b.load_count.next = false;
        }
        b.solver.rows.next = (rows as u64).into();
        b.solver.columns.next = (columns as u64).into();
        b.solver.start.next = true;
        tick(&mut b, |b| &mut b.clock);
        b.solver.start.next = false;
        let mut guard = 0u64;
        while !b.solver.done.val() {
            tick(&mut b, |b| &mut b.clock);
            guard += 1;
            assert!(guard < 50_000_000, "the solver never finished");
        }
        let mut cells = vec![];
        for _ in 0..rows {
            let (k, v) = (
                b.solver.top_known.val().to_u64(),
                b.solver.top_value.val().to_u64(),
            );
            cells.extend((0..columns).map(|c| (k >> c & 1 == 1).then_some(v >> c & 1 == 1)));
            b.solver.next_row.next = true;
            tick(&mut b, |b| &mut b.clock);
            b.solver.next_row.next = false;
            tick(&mut b, |b| &mut b.clock);
        }
        Run {
            outcome: b.solver.outcome.val().to_u8(),
            detail: b.solver.contradiction_line.val().to_u8(),
            cells,
            passes: b.solver.passes.val().to_u8(),
            cycles: b.solver.cycles.val().to_u64(),
        }
    }

    fn compare(verdict: &Verdict, run: &Run) {
        assert_eq!(run.outcome, verdict.outcome, "outcome");
        if verdict.outcome == outcome::CONTRADICTION {
            assert_eq!(run.detail, verdict.detail, "contradiction line");
        }
        assert_eq!(run.cells, verdict.cells, "cells");
        assert_eq!(run.passes, verdict.passes, "passes");
        assert_eq!(run.cycles, verdict.cycles, "cycles");
    }

    fn lines_of(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<Vec<u64>> {
        rows.iter()
            .map(|c| crate::options::LineOptions::new(c, columns.len()).collect())
            .chain(
                columns
                    .iter()
                    .map(|c| crate::options::LineOptions::new(c, rows.len()).collect()),
            )
            .collect()
    }

    fn check(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Run {
        let lines = lines_of(rows, columns);
        let verdict = model::solve(rows.len(), columns.len(), &lines);
        let run = run(rows.len(), columns.len(), &lines);
        compare(&verdict, &run);
        run
    }

    #[test]
    fn solves_the_original_boards_like_the_model() {
        let x = vec![
            vec![11],
            vec![1, 7, 1],
            vec![2, 5, 2],
            vec![3, 3, 3],
            vec![4, 1, 4],
            vec![5, 5],
            vec![4, 1, 4],
            vec![3, 3, 3],
            vec![2, 5, 2],
            vec![1, 7, 1],
            vec![11],
        ];
        let boards: Vec<(&str, Vec<Vec<usize>>, Vec<Vec<usize>>)> = vec![
            (
                "4x4",
                vec![vec![2], vec![1, 1], vec![3], vec![1]],
                vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
            ),
            (
                "D",
                vec![vec![3], vec![1, 1], vec![1, 1], vec![1, 1], vec![3]],
                vec![vec![5], vec![1, 1], vec![1, 1], vec![3], vec![]],
            ),
            (
                "heart",
                vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
                vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
            ),
            ("X", x.clone(), x),
        ];
        for (name, rows, columns) in boards {
            let run = check(&rows, &columns);
            assert_eq!(run.outcome, outcome::SOLVED, "{name}");
            println!("{name}: {} cycles, {} passes", run.cycles, run.passes);
        }
    }

    #[test]
    fn reports_stalled_and_contradiction() {
        let run = check(&[vec![1], vec![1]], &[vec![1], vec![1]]);
        assert_eq!(run.outcome, outcome::STALLED);
        let run = check(&[vec![2], vec![]], &[vec![], vec![1]]);
        assert_eq!(run.outcome, outcome::CONTRADICTION);
        // Rows fix everything, a column disagrees: a contradiction, not "solved".
        let run = check(&[vec![1], vec![1]], &[vec![2], vec![]]);
        assert_eq!(run.outcome, outcome::SOLVED);
        let run = check(&[vec![1, 1], vec![]], &[vec![1], vec![], vec![]]);
        assert_eq!(run.outcome, outcome::CONTRADICTION);
    }

    #[test]
    fn full_size_lines_and_random_pictures_match_the_model() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut outcomes = [0usize; 3];
        for trial in 0..12 {
            let (rows, columns) = match trial {
                0 => (32, 32),
                1 => (1, 32),
                2 => (32, 1),
                _ => (1 + rand() as usize % 12, 1 + rand() as usize % 12),
            };
            let density = 40 + rand() % 30;
            let cells: Vec<bool> = (0..rows * columns).map(|_| rand() % 100 < density).collect();
            let (r, c) = model::clues_of_picture(rows, columns, &cells);
            let lines = lines_of(&r, &c);
            if lines.iter().map(Vec::len).sum::<usize>() > crate::params::FIFO_ENTRIES {
                continue;
            }
            let run = check(&r, &c);
            outcomes[run.outcome as usize] += 1;
        }
        println!("solved, contradiction, stalled: {outcomes:?}");
        assert!(
            outcomes[0] > 0 && outcomes[2] > 0,
            "the sample covers solved and stalled boards"
        );
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = Solver::default();
        uut.connect_all();
        yosys_check(&uut, "solver");
    }
}
