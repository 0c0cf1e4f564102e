//! Reply assembler: turns a verdict into protocol v1 messages and feeds them,
//! two bytes each (high byte first), to the UART transmitter.
//!
//! Every reply is START_BOARD m, START_BOARD n, the m·n cells in row-major
//! order (board replies only: ASSIGN with the value, or UNKNOWN), the STATUS
//! fields 0..=12 in order, END_BOARD. Refusals and INFO replies carry m = n = 0
//! and no cells; an INFO reply adds field 13, ENGINES (the running engine and
//! the flash's images), after field 12. An abort stops the reply at the next message boundary, so
//! the host never sees half a message.

use crate::common::params::{
    COUNT_BITS, CYCLE_BITS, DIM_BITS, FIFO_ADDR_BITS, LINE_ID_BITS, MAX_LINE, MAX_LINES,
};
use crate::constant;
use crate::link::message_sender::MessageSender;
use crate::link::protocol::{code, image, status, VERSION};
use crate::link::status_fields::StatusFields;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum ReplyPhase {
    Idle,
    Header,
    Cells,
    Status,
    Footer,
}

#[derive(LogicBlock)]
pub struct ReplyAssembler {
    pub clock: Signal<In, Clock>,
    /// Stop at the next message boundary.
    pub abort: Signal<In, Bit>,
    /// Pulse: the solver's verdict is ready; reply with the board.
    pub board_done: Signal<In, Bit>,
    /// Pulse: the parser refused the board.
    pub refused: Signal<In, Bit>,
    /// Pulse: the host asked for the build parameters.
    pub query: Signal<In, Bit>,
    pub rows: Signal<In, Bits<DIM_BITS>>,
    pub columns: Signal<In, Bits<DIM_BITS>>,
    pub solver_outcome: Signal<In, Bits<3>>,
    pub contradiction_line: Signal<In, Bits<LINE_ID_BITS>>,
    pub cycles: Signal<In, Bits<CYCLE_BITS>>,
    pub passes: Signal<In, Bits<8>>,
    pub options: Signal<In, Bits<COUNT_BITS>>,
    pub refuse_outcome: Signal<In, Bits<3>>,
    pub refuse_detail: Signal<In, Bits<8>>,
    /// The solver's top grid row, and the request for the next one.
    pub top_known: Signal<In, Bits<MAX_LINE>>,
    pub top_value: Signal<In, Bits<MAX_LINE>>,
    pub next_row: Signal<Out, Bit>,
    /// To the UART transmitter.
    pub tx_data: Signal<Out, Bits<8>>,
    pub tx_start: Signal<Out, Bit>,
    pub tx_ready: Signal<In, Bit>,
    /// High until the last byte has been handed to the transmitter.
    pub busy: Signal<Out, Bit>,
    phase: DFF<ReplyPhase>,
    sender: MessageSender,
    status: StatusFields,
    step: DFF<Bits<5>>,
    column: DFF<Bits<DIM_BITS>>,
    last_column: DFF<Bit>,
    last_row: DFF<Bit>,
    row: DFF<Bits<DIM_BITS>>,
    cell_index: DFF<Bits<12>>,
    /// The cell at `column` of the top row, picked a cycle ahead: the
    /// 32-way choice straight into the message register was a critical
    /// path of the DNF image. Messages are made at least three cycles apart
    /// (the sender holds each for a byte), and the column and row move only
    /// when one is made, so the pick is never stale.
    cell_known: DFF<Bit>,
    cell_value: DFF<Bit>,
    rows_q: DFF<Bits<DIM_BITS>>,
    columns_q: DFF<Bits<DIM_BITS>>,
    outcome_q: DFF<Bits<8>>,
    detail_q: DFF<Bits<8>>,
    cycles_q: DFF<Bits<CYCLE_BITS>>,
    passes_q: DFF<Bits<8>>,
    options_q: DFF<Bits<16>>,
    code_start_board: Constant<Bits<3>>,
    code_assign: Constant<Bits<3>>,
    code_unknown: Constant<Bits<3>>,
    code_status: Constant<Bits<3>>,
    code_end_board: Constant<Bits<3>>,
    info: Constant<Bits<8>>,
    max_line: Constant<Bits<8>>,
    fifo_addr_bits: Constant<Bits<8>>,
    version: Constant<Bits<8>>,
    max_lines: Constant<Bits<8>>,
    engines: Constant<Bits<8>>,
    /// 12 (MAX_LINES) for board and refusal replies, 13 (ENGINES) for INFO.
    last_step: DFF<Bits<5>>,
    board_last_step: Constant<Bits<5>>,
    info_last_step: Constant<Bits<5>>,
    contradiction: Constant<Bits<3>>,
}

impl Default for ReplyAssembler {
    fn default() -> Self {
        ReplyAssembler {
            clock: Default::default(),
            abort: Default::default(),
            board_done: Default::default(),
            refused: Default::default(),
            query: Default::default(),
            rows: Default::default(),
            columns: Default::default(),
            solver_outcome: Default::default(),
            contradiction_line: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            options: Default::default(),
            refuse_outcome: Default::default(),
            refuse_detail: Default::default(),
            top_known: Default::default(),
            top_value: Default::default(),
            next_row: Default::default(),
            tx_data: Default::default(),
            tx_start: Default::default(),
            tx_ready: Default::default(),
            busy: Default::default(),
            phase: Default::default(),
            sender: Default::default(),
            status: Default::default(),
            step: Default::default(),
            column: Default::default(),
            last_column: Default::default(),
            last_row: Default::default(),
            row: Default::default(),
            cell_index: Default::default(),
            cell_known: Default::default(),
            cell_value: Default::default(),
            rows_q: Default::default(),
            columns_q: Default::default(),
            outcome_q: Default::default(),
            detail_q: Default::default(),
            cycles_q: Default::default(),
            passes_q: Default::default(),
            options_q: Default::default(),
            code_start_board: constant(code::START_BOARD),
            code_assign: constant(code::ASSIGN),
            code_unknown: constant(code::UNKNOWN),
            code_status: constant(code::STATUS),
            code_end_board: constant(code::END_BOARD),
            info: constant(status::outcome::INFO),
            max_line: constant(MAX_LINE as u64),
            fifo_addr_bits: constant(FIFO_ADDR_BITS as u64),
            version: constant(VERSION),
            max_lines: constant(MAX_LINES as u64),
            engines: constant(image::engines_field(status::engines::DNF, image::FLASH)),
            last_step: Default::default(),
            board_last_step: constant(status::field::MAX_LINES),
            info_last_step: constant(status::field::ENGINES),
            contradiction: constant(status::outcome::CONTRADICTION),
        }
    }
}

impl Logic for ReplyAssembler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            step,
            column,
            row,
            cell_index,
            cell_known,
            cell_value,
            rows_q,
            columns_q,
            outcome_q,
            detail_q,
            cycles_q,
            passes_q,
            options_q,
            last_column,
            last_row,
            last_step
        );
        self.next_row.next = false;
        // Registered: a cell message is made at most every other cycle (it
        // waits for the transmitter), and the compare fed the phase register.
        self.last_column.d.next = self.column.q.val() + 1 == self.columns_q.q.val();
        self.last_row.d.next = self.row.q.val() + 1 == self.rows_q.q.val();
        self.busy.next = (self.phase.q.val() != ReplyPhase::Idle) | self.sender.pending.val();

        // The message made below goes out through the sender.
        self.sender.clock.next = self.clock.val();
        self.sender.load.next = false;
        self.sender.message.next = 0.into();
        self.tx_data.next = self.sender.tx_data.val();
        self.tx_start.next = self.sender.tx_start.val();
        self.sender.tx_ready.next = self.tx_ready.val();

        // The STATUS field numbered `step`; no SEARCH fields in v1.
        self.status.clock.next = self.clock.val();
        self.status.step.next = self.step.q.val();
        self.status.last_step.next = self.last_step.q.val();
        self.status.outcome.next = self.outcome_q.q.val();
        self.status.detail.next = self.detail_q.q.val();
        self.status.cycles.next = self.cycles_q.q.val();
        self.status.passes.next = self.passes_q.q.val();
        self.status.options.next = self.options_q.q.val();
        self.status.max_line.next = self.max_line.val();
        self.status.fifo_addr_bits.next = self.fifo_addr_bits.val();
        self.status.version.next = self.version.val();
        self.status.max_lines.next = self.max_lines.val();
        self.status.engines.next = self.engines.val();
        self.status.clue_store_bits.next = 0.into();
        self.status.nodes.next = 0.into();
        self.status.backtracks.next = 0.into();
        self.status.with_search.next = false;

        self.cell_known.d.next = self.top_known.val().get_bit(self.column.q.val().index());
        self.cell_value.d.next = self.top_value.val().get_bit(self.column.q.val().index());

        // Make the next message once the last one is on its way.
        if !self.sender.pending.val() {
            match self.phase.q.val() {
                ReplyPhase::Header => {
                    self.sender.load.next = true;
                    self.sender.message.next = (bit_cast::<16, 3>(self.code_start_board.val()) << 13)
                        | (bit_cast::<16, DIM_BITS>(self.rows_q.q.val()) << 1);
                    if self.step.q.val() == 1 {
                        self.sender.message.next = (bit_cast::<16, 3>(self.code_start_board.val()) << 13)
                            | (bit_cast::<16, DIM_BITS>(self.columns_q.q.val()) << 1);
                        self.step.d.next = 0.into();
                        self.phase.d.next = ReplyPhase::Status;
                        if self.rows_q.q.val() != 0 {
                            self.phase.d.next = ReplyPhase::Cells;
                        }
                    } else {
                        self.step.d.next = 1.into();
                    }
                }
                ReplyPhase::Cells => {
                    self.sender.load.next = true;
                    self.sender.message.next = (bit_cast::<16, 3>(self.code_unknown.val()) << 13)
                        | (bit_cast::<16, 12>(self.cell_index.q.val()) << 1);
                    if self.cell_known.q.val() {
                        self.sender.message.next = (bit_cast::<16, 3>(self.code_assign.val()) << 13)
                            | (bit_cast::<16, 12>(self.cell_index.q.val()) << 1)
                            | bit_cast::<16, 1>(self.cell_value.q.val().into());
                    }
                    self.cell_index.d.next = self.cell_index.q.val() + 1;
                    self.column.d.next = self.column.q.val() + 1;
                    if self.last_column.q.val() {
                        self.column.d.next = 0.into();
                        self.row.d.next = self.row.q.val() + 1;
                        self.next_row.next = true;
                        if self.last_row.q.val() {
                            self.phase.d.next = ReplyPhase::Status;
                        }
                    }
                }
                ReplyPhase::Status => {
                    self.sender.load.next = true;
                    self.sender.message.next = (bit_cast::<16, 3>(self.code_status.val()) << 13)
                        | (bit_cast::<16, 4>(self.status.id.val()) << 9)
                        | (bit_cast::<16, 8>(self.status.byte.val()) << 1);
                    self.step.d.next = self.step.q.val() + 1;
                    if self.status.last.val() {
                        self.phase.d.next = ReplyPhase::Footer;
                    }
                }
                ReplyPhase::Footer => {
                    self.sender.load.next = true;
                    self.sender.message.next = bit_cast::<16, 3>(self.code_end_board.val()) << 13;
                    self.phase.d.next = ReplyPhase::Idle;
                }
                _ => {}
            }
        }

        // A new reply: latch what it will say.
        if self.board_done.val() | self.refused.val() | self.query.val() {
            self.phase.d.next = ReplyPhase::Header;
            self.step.d.next = 0.into();
            self.row.d.next = 0.into();
            self.column.d.next = 0.into();
            self.cell_index.d.next = 0.into();
            self.rows_q.d.next = 0.into();
            self.columns_q.d.next = 0.into();
            self.detail_q.d.next = 0.into();
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 0.into();
            self.options_q.d.next = 0.into();
            self.last_step.d.next = self.board_last_step.val();
        }
        if self.board_done.val() {
            self.rows_q.d.next = self.rows.val();
            self.columns_q.d.next = self.columns.val();
            self.outcome_q.d.next = bit_cast::<8, 3>(self.solver_outcome.val());
            if self.solver_outcome.val() == self.contradiction.val() {
                self.detail_q.d.next = bit_cast::<8, LINE_ID_BITS>(self.contradiction_line.val());
            }
            self.cycles_q.d.next = self.cycles.val();
            self.passes_q.d.next = self.passes.val();
            self.options_q.d.next = bit_cast::<16, COUNT_BITS>(self.options.val());
        }
        if self.refused.val() {
            self.outcome_q.d.next = bit_cast::<8, 3>(self.refuse_outcome.val());
            self.detail_q.d.next = self.refuse_detail.val();
        }
        if self.query.val() {
            self.outcome_q.d.next = self.info.val();
            self.last_step.d.next = self.info_last_step.val();
        }
        // An abort stops making messages; the pending one still goes out.
        // It wins over a verdict in the same cycle, which is the abandoned
        // board's (a query or a refusal with it is the new stream's).
        if self.abort.val() & !self.refused.val() & !self.query.val() {
            self.phase.d.next = ReplyPhase::Idle;
        }
    }
}

#[cfg(test)]
mod tests;
