//! Message parser of protocol v1: the body of a board of options, behind the
//! shared front end (`link/session.rs`: the framer, START_BOARD and its
//! version, sizes, QUERY, SWITCH, silences, lost bytes and the refusal).
//! It builds each option word from its ASSIGN messages, appends options to
//! the FIFO with a count per line, and checks the lines. Any violation ends
//! the board with a `refuse` pulse (outcome and detail for the reply).
//!
//! START_LINE with index 0 means "the next line" (the original design's
//! host sent 0 for every line); any other index must be the next line's.
//! A board of clues (protocol v2) is refused as NO_ENGINE by the session.

use crate::common::params::{COUNT_BITS, DIM_BITS, LINE_ID_BITS, MAX_LINE, MAX_LINES};
use crate::constant;
use crate::link::framer::MessageFramer;
use crate::link::protocol::{code, status};
use crate::link::session::BoardSession;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum LineState {
    /// Between lines: START_LINE of the next line, or END_BOARD after the last.
    ExpectLine,
    /// Inside a line: ASSIGN, NEXT_OPTION or END_LINE.
    InLine,
    /// An END_LINE was taken: record the line's count, then move to the next line.
    EndLine,
    NextLine,
}

#[derive(LogicBlock)]
pub struct MessageParser {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Bytes from the UART receiver.
    pub rx_byte: Signal<In, Bits<8>>,
    pub rx_byte_valid: Signal<In, Bit>,
    /// Pulse: the receiver dropped a byte (low stop bit).
    pub rx_framing_error: Signal<In, Bit>,
    /// Append `option` to the FIFO.
    pub fifo_write: Signal<Out, Bit>,
    pub option: Signal<Out, Bits<MAX_LINE>>,
    pub fifo_full: Signal<In, Bit>,
    /// Record `count` options for line `count_line`.
    pub count_write: Signal<Out, Bit>,
    pub count_line: Signal<Out, Bits<LINE_ID_BITS>>,
    pub count: Signal<Out, Bits<COUNT_BITS>>,
    /// The board's size (valid from the second START_BOARD on).
    pub rows: Signal<Out, Bits<DIM_BITS>>,
    pub columns: Signal<Out, Bits<DIM_BITS>>,
    /// Pulse: a new board or a query began; drop whatever was going on and empty the FIFO.
    pub abort: Signal<Out, Bit>,
    /// Pulse: the board is loaded (END_BOARD); solve it.
    pub board_loaded: Signal<Out, Bit>,
    /// Pulse: the board is refused, with this outcome and detail.
    pub refuse: Signal<Out, Bit>,
    pub refuse_outcome: Signal<Out, Bits<3>>,
    pub refuse_detail: Signal<Out, Bits<8>>,
    /// Pulse: the host asked for the build parameters.
    pub query: Signal<Out, Bit>,
    /// Pulse: a SWITCH outside a board, asking for flash image `switch_image`.
    pub switch: Signal<Out, Bit>,
    pub switch_image: Signal<Out, Bits<12>>,
    /// High while a board is being received.
    pub loading: Signal<Out, Bit>,
    session: BoardSession,
    /// The last message's code and index.
    message_code: Signal<Local, Bits<3>>,
    message_index: Signal<Local, Bits<12>>,
    state: DFF<LineState>,
    // The decoded message (valid with `take`).
    is_start_line: DFF<Bit>,
    is_end_board: DFF<Bit>,
    is_assign: DFF<Bit>,
    is_end_line: DFF<Bit>,
    is_separator: DFF<Bit>,
    is_next_line: DFF<Bit>,
    line_in_board: DFF<Bit>,
    line_is_end: DFF<Bit>,
    line_is_row: DFF<Bit>,
    cell_in_line: DFF<Bit>,
    total_lines: DFF<Bits<LINE_ID_BITS>>,
    line: DFF<Bits<LINE_ID_BITS>>,
    line_length: DFF<Bits<12>>,
    option_q: DFF<Bits<MAX_LINE>>,
    /// An ASSIGN taken, written into `option_q` a cycle later from these
    /// registers: the take's decision straight into the word's 32 bit
    /// enables was a critical path of the DNF image. The word is read only
    /// at the next NEXT_OPTION or END_LINE, a message later.
    assign_pending: DFF<Bit>,
    assign_cell: DFF<Bits<5>>,
    assign_value: DFF<Bit>,
    line_options: DFF<Bits<COUNT_BITS>>,
    // Registered outputs.
    fifo_write_q: DFF<Bit>,
    count_write_q: DFF<Bit>,
    code_start_line: Constant<Bits<3>>,
    code_assign: Constant<Bits<3>>,
    code_next_option: Constant<Bits<3>>,
    code_end_line: Constant<Bits<3>>,
    code_end_board: Constant<Bits<3>>,
    malformed: Constant<Bits<3>>,
    over_capacity: Constant<Bits<3>>,
    unexpected: Constant<Bits<8>>,
    cell_out_of_line: Constant<Bits<8>>,
    wrong_line: Constant<Bits<8>>,
    fifo_full_detail: Constant<Bits<8>>,
}

impl MessageParser {
    pub fn new(clocks_per_bit: u32) -> MessageParser {
        MessageParser::with_framer(MessageFramer::new(clocks_per_bit))
    }

    /// A parser whose idle timeout is `cycles` clock cycles (the formal
    /// checks use a short one).
    pub fn with_idle_cycles(cycles: u64) -> MessageParser {
        MessageParser::with_framer(MessageFramer::with_idle_cycles(cycles))
    }

    fn with_framer(framer: MessageFramer) -> MessageParser {
        MessageParser {
            clock: Default::default(),
            reset: Default::default(),
            rx_byte: Default::default(),
            rx_byte_valid: Default::default(),
            rx_framing_error: Default::default(),
            fifo_write: Default::default(),
            option: Default::default(),
            fifo_full: Default::default(),
            count_write: Default::default(),
            count_line: Default::default(),
            count: Default::default(),
            rows: Default::default(),
            columns: Default::default(),
            abort: Default::default(),
            board_loaded: Default::default(),
            refuse: Default::default(),
            refuse_outcome: Default::default(),
            refuse_detail: Default::default(),
            query: Default::default(),
            switch: Default::default(),
            switch_image: Default::default(),
            loading: Default::default(),
            session: BoardSession::new(framer, false, MAX_LINE as u64, Some(MAX_LINES as u64)),
            message_code: Default::default(),
            message_index: Default::default(),
            state: Default::default(),
            is_start_line: Default::default(),
            is_end_board: Default::default(),
            is_assign: Default::default(),
            is_end_line: Default::default(),
            is_separator: Default::default(),
            is_next_line: Default::default(),
            line_in_board: Default::default(),
            line_is_end: Default::default(),
            line_is_row: Default::default(),
            cell_in_line: Default::default(),
            total_lines: Default::default(),
            line: Default::default(),
            line_length: Default::default(),
            option_q: Default::default(),
            assign_pending: Default::default(),
            assign_cell: Default::default(),
            assign_value: Default::default(),
            line_options: Default::default(),
            fifo_write_q: Default::default(),
            count_write_q: Default::default(),
            code_start_line: constant(code::START_LINE),
            code_assign: constant(code::ASSIGN),
            code_next_option: constant(code::NEXT_OPTION),
            code_end_line: constant(code::END_LINE),
            code_end_board: constant(code::END_BOARD),
            malformed: constant(status::outcome::MALFORMED),
            over_capacity: constant(status::outcome::OVER_CAPACITY),
            unexpected: constant(status::detail::UNEXPECTED),
            cell_out_of_line: constant(status::detail::CELL_OUT_OF_LINE),
            wrong_line: constant(status::detail::WRONG_LINE),
            fifo_full_detail: constant(status::detail::FIFO_FULL),
        }
    }
}

impl Logic for MessageParser {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            is_start_line,
            is_end_board,
            is_assign,
            is_end_line,
            is_separator,
            is_next_line,
            line_in_board,
            line_is_end,
            line_is_row,
            cell_in_line,
            total_lines,
            line,
            line_length,
            option_q,
            assign_pending,
            assign_cell,
            assign_value,
            line_options,
            fifo_write_q,
            count_write_q
        );
        // The session: bytes in; boards begun, refused, queried.
        self.session.clock.next = self.clock.val();
        self.session.reset.next = self.reset.val();
        self.session.rx_byte.next = self.rx_byte.val();
        self.session.rx_byte_valid.next = self.rx_byte_valid.val();
        self.session.rx_framing_error.next = self.rx_framing_error.val();
        self.rows.next = bit_cast::<DIM_BITS, 12>(self.session.rows.val());
        self.columns.next = bit_cast::<DIM_BITS, 12>(self.session.columns.val());
        self.abort.next = self.session.abort.val();
        self.board_loaded.next = self.session.board_loaded.val();
        self.refuse.next = self.session.refuse.val();
        self.refuse_outcome.next = self.session.refuse_outcome.val();
        self.refuse_detail.next = self.session.refuse_detail.val();
        self.query.next = self.session.query.val();
        self.switch.next = self.session.switch.val();
        self.switch_image.next = self.session.switch_image.val();
        self.loading.next = self.session.loading.val();
        // The body: options and line counts out.
        self.fifo_write.next = self.fifo_write_q.q.val();
        self.option.next = self.option_q.q.val();
        self.count_write.next = self.count_write_q.q.val();
        self.count_line.next = self.line.q.val();
        self.count.next = self.line_options.q.val();
        self.fifo_write_q.d.next = false;
        self.count_write_q.d.next = false;
        self.assign_pending.d.next = false;
        self.session.body.listening.next =
            (self.state.q.val() == LineState::ExpectLine) | (self.state.q.val() == LineState::InLine);
        self.session.body.finish.next = false;
        // A message taken is refused as UNEXPECTED unless a case below wants it.
        self.session.body.refuse.next = false;
        self.session.body.outcome.next = self.malformed.val();
        self.session.body.detail.next = self.unexpected.val();

        self.message_code.next = self.session.body.message.val().get_bits::<3>(13);
        self.message_index.next = self.session.body.message.val().get_bits::<12>(1);

        // The second START_BOARD: line 0 comes next.
        if self.session.body.begin.val() {
            self.total_lines.d.next = bit_cast::<LINE_ID_BITS, 12>(self.session.body.rows.val())
                + bit_cast::<LINE_ID_BITS, 12>(self.message_index.val());
            self.line.d.next = 0.into();
            self.state.d.next = LineState::ExpectLine;
        }

        // Decode a complete message into registered flags (one cycle), so
        // that the state machine below acts on short paths.
        if self.session.body.message_valid.val() {
            self.is_start_line.d.next = self.message_code.val() == self.code_start_line.val();
            self.is_end_board.d.next = self.message_code.val() == self.code_end_board.val();
            self.is_assign.d.next = self.message_code.val() == self.code_assign.val();
            self.is_end_line.d.next = self.message_code.val() == self.code_end_line.val();
            self.is_separator.d.next = (self.message_code.val() == self.code_next_option.val())
                | (self.message_code.val() == self.code_end_line.val());
            self.is_next_line.d.next = (bit_cast::<12, LINE_ID_BITS>(self.line.q.val())
                == self.message_index.val())
                | (self.message_index.val() == 0);
            self.line_in_board.d.next = self.line.q.val() < self.total_lines.q.val();
            self.line_is_end.d.next = self.line.q.val() == self.total_lines.q.val();
            self.line_is_row.d.next =
                bit_cast::<12, LINE_ID_BITS>(self.line.q.val()) < self.session.body.rows.val();
            self.cell_in_line.d.next = self.message_index.val() < self.line_length.q.val();
        }

        // Act on it.
        if self.session.body.take.val() {
            match self.state.q.val() {
                LineState::ExpectLine => {
                    self.session.body.refuse.next = true;
                    if self.is_start_line.q.val() {
                        if self.is_next_line.q.val() & self.line_in_board.q.val() {
                            self.session.body.refuse.next = false;
                            self.state.d.next = LineState::InLine;
                            self.option_q.d.next = 0.into();
                            self.line_options.d.next = 0.into();
                            // Rows are as long as there are columns, and vice versa.
                            if self.line_is_row.q.val() {
                                self.line_length.d.next = self.session.body.columns.val();
                            } else {
                                self.line_length.d.next = self.session.body.rows.val();
                            }
                        } else {
                            self.session.body.detail.next = self.wrong_line.val();
                        }
                    }
                    if self.is_end_board.q.val() {
                        if self.line_is_end.q.val() {
                            self.session.body.refuse.next = false;
                            self.session.body.finish.next = true;
                        } else {
                            self.session.body.detail.next = self.wrong_line.val();
                        }
                    }
                }
                LineState::InLine => {
                    if self.is_assign.q.val() {
                        if self.cell_in_line.q.val() {
                            self.assign_pending.d.next = true;
                            self.assign_cell.d.next = self.message_index.val().get_bits::<5>(0);
                            self.assign_value.d.next = self.session.body.message.val().get_bit(0);
                        } else {
                            self.session.body.refuse.next = true;
                            self.session.body.detail.next = self.cell_out_of_line.val();
                        }
                    } else if self.is_separator.q.val() {
                        if self.fifo_full.val() {
                            self.session.body.refuse.next = true;
                            self.session.body.outcome.next = self.over_capacity.val();
                            self.session.body.detail.next = self.fifo_full_detail.val();
                        } else {
                            self.fifo_write_q.d.next = true;
                            self.line_options.d.next = self.line_options.q.val() + 1;
                            if self.is_end_line.q.val() {
                                self.state.d.next = LineState::EndLine;
                            }
                        }
                    } else {
                        self.session.body.refuse.next = true;
                    }
                }
                _ => {}
            }
        }
        if self.assign_pending.q.val() {
            self.option_q.d.next = self
                .option_q
                .q
                .val()
                .replace_bit(self.assign_cell.q.val().index(), self.assign_value.q.val());
        }
        // The option just written is cleared for the next one.
        if self.fifo_write_q.q.val() {
            self.option_q.d.next = 0.into();
        }
        // The line's count, then the next line, while the board is still
        // open (a reset or a refusal drops them with it).
        if self.session.body.open.val() & (self.state.q.val() == LineState::EndLine) {
            self.count_write_q.d.next = true;
            self.state.d.next = LineState::NextLine;
        }
        if self.session.body.open.val() & (self.state.q.val() == LineState::NextLine) {
            self.line.d.next = self.line.q.val() + 1;
            self.state.d.next = LineState::ExpectLine;
        }
    }
}

#[cfg(test)]
mod tests;
