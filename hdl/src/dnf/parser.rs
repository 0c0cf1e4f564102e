//! Message parser of protocol v1: takes the messages of `framer.rs`,
//! decodes host → board messages, builds each option word
//! from its ASSIGN messages, appends options to the FIFO with a count per
//! line, and checks everything it is sent. Any violation ends the board with
//! a `refuse` pulse (outcome and detail for the reply); START_BOARD always
//! starts over.
//!
//! START_LINE with index 0 means "the next line" (the original design's
//! host sent 0 for every line); any other index must be the next line's.
//!
//! When the framer reports an idle line, a board being loaded is refused as
//! TRUNCATED and a lone START_BOARD is forgotten; a framing error while a
//! board is loading refuses it as FRAMING. A board of clues (the second
//! START_BOARD with value 1, protocol v2) is refused as NO_ENGINE.

use crate::common::params::{COUNT_BITS, DIM_BITS, LINE_ID_BITS, MAX_LINE, MAX_LINES};
use crate::constant;
use crate::link::framer::MessageFramer;
use crate::link::protocol::{code, status};
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum ParseState {
    /// No board: only START_BOARD and QUERY mean anything.
    Idle,
    /// Got the rows; the columns' START_BOARD must follow.
    GotRows,
    /// Between lines: START_LINE of the next line, or END_BOARD after the last.
    ExpectLine,
    /// Inside a line: ASSIGN, NEXT_OPTION or END_LINE.
    InLine,
    /// An END_LINE was taken: record the line's count, then move to the next line.
    EndLine,
    NextLine,
    /// Board handed to the solver: waiting for the next START_BOARD.
    Solving,
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
    framer: MessageFramer,
    state: DFF<ParseState>,
    // The decoded message (valid while `act`).
    act: DFF<Bit>,
    is_start_board: DFF<Bit>,
    is_query: DFF<Bit>,
    is_switch: DFF<Bit>,
    is_start_line: DFF<Bit>,
    is_end_board: DFF<Bit>,
    is_assign: DFF<Bit>,
    is_end_line: DFF<Bit>,
    is_separator: DFF<Bit>,
    size_zero: DFF<Bit>,
    size_too_big: DFF<Bit>,
    is_next_line: DFF<Bit>,
    line_in_board: DFF<Bit>,
    line_is_end: DFF<Bit>,
    line_is_row: DFF<Bit>,
    cell_in_line: DFF<Bit>,
    total_lines: DFF<Bits<LINE_ID_BITS>>,
    rows_q: DFF<Bits<12>>,
    columns_q: DFF<Bits<12>>,
    line: DFF<Bits<LINE_ID_BITS>>,
    line_length: DFF<Bits<12>>,
    option_q: DFF<Bits<MAX_LINE>>,
    line_options: DFF<Bits<COUNT_BITS>>,
    // Registered outputs.
    fifo_write_q: DFF<Bit>,
    count_write_q: DFF<Bit>,
    abort_q: DFF<Bit>,
    solve_q: DFF<Bit>,
    refuse_q: DFF<Bit>,
    query_q: DFF<Bit>,
    switch_q: DFF<Bit>,
    outcome_q: DFF<Bits<3>>,
    detail_q: DFF<Bits<8>>,
    max_line: Constant<Bits<12>>,
    max_lines: Constant<Bits<13>>,
    code_start_board: Constant<Bits<3>>,
    code_start_line: Constant<Bits<3>>,
    code_assign: Constant<Bits<3>>,
    code_next_option: Constant<Bits<3>>,
    code_end_line: Constant<Bits<3>>,
    code_end_board: Constant<Bits<3>>,
    code_query: Constant<Bits<3>>,
    code_switch: Constant<Bits<3>>,
    malformed: Constant<Bits<3>>,
    over_capacity: Constant<Bits<3>>,
    bad_size: Constant<Bits<8>>,
    unexpected: Constant<Bits<8>>,
    cell_out_of_line: Constant<Bits<8>>,
    wrong_line: Constant<Bits<8>>,
    fifo_full_detail: Constant<Bits<8>>,
    truncated: Constant<Bits<8>>,
    framing: Constant<Bits<8>>,
    no_engine: Constant<Bits<8>>,
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
            framer,
            state: Default::default(),
            act: Default::default(),
            is_start_board: Default::default(),
            is_query: Default::default(),
            is_switch: Default::default(),
            is_start_line: Default::default(),
            is_end_board: Default::default(),
            is_assign: Default::default(),
            is_end_line: Default::default(),
            is_separator: Default::default(),
            size_zero: Default::default(),
            size_too_big: Default::default(),
            is_next_line: Default::default(),
            line_in_board: Default::default(),
            line_is_end: Default::default(),
            line_is_row: Default::default(),
            cell_in_line: Default::default(),
            total_lines: Default::default(),
            rows_q: Default::default(),
            columns_q: Default::default(),
            line: Default::default(),
            line_length: Default::default(),
            option_q: Default::default(),
            line_options: Default::default(),
            fifo_write_q: Default::default(),
            count_write_q: Default::default(),
            abort_q: Default::default(),
            solve_q: Default::default(),
            refuse_q: Default::default(),
            query_q: Default::default(),
            switch_q: Default::default(),
            outcome_q: Default::default(),
            detail_q: Default::default(),
            max_line: Constant::new((MAX_LINE as u64).into()),
            max_lines: Constant::new((MAX_LINES as u64).into()),
            code_start_board: constant(code::START_BOARD),
            code_start_line: constant(code::START_LINE),
            code_assign: constant(code::ASSIGN),
            code_next_option: constant(code::NEXT_OPTION),
            code_end_line: constant(code::END_LINE),
            code_end_board: constant(code::END_BOARD),
            code_query: constant(code::QUERY),
            code_switch: constant(code::SWITCH),
            malformed: constant(status::outcome::MALFORMED),
            over_capacity: constant(status::outcome::OVER_CAPACITY),
            bad_size: constant(status::detail::BAD_SIZE),
            unexpected: constant(status::detail::UNEXPECTED),
            cell_out_of_line: constant(status::detail::CELL_OUT_OF_LINE),
            wrong_line: constant(status::detail::WRONG_LINE),
            fifo_full_detail: constant(status::detail::FIFO_FULL),
            truncated: constant(status::detail::TRUNCATED),
            framing: constant(status::detail::FRAMING),
            no_engine: constant(status::detail::NO_ENGINE),
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
            act,
            is_start_board,
            is_query,
            is_switch,
            is_start_line,
            is_end_board,
            is_assign,
            is_end_line,
            is_separator,
            size_zero,
            size_too_big,
            is_next_line,
            line_in_board,
            line_is_end,
            line_is_row,
            cell_in_line,
            total_lines,
            rows_q,
            columns_q,
            line,
            line_length,
            option_q,
            line_options,
            fifo_write_q,
            count_write_q,
            abort_q,
            solve_q,
            refuse_q,
            query_q,
            switch_q,
            outcome_q,
            detail_q
        );
        self.fifo_write.next = self.fifo_write_q.q.val();
        self.option.next = self.option_q.q.val();
        self.count_write.next = self.count_write_q.q.val();
        self.count_line.next = self.line.q.val();
        self.count.next = self.line_options.q.val();
        self.rows.next = bit_cast::<DIM_BITS, 12>(self.rows_q.q.val());
        self.columns.next = bit_cast::<DIM_BITS, 12>(self.columns_q.q.val());
        self.abort.next = self.abort_q.q.val();
        self.board_loaded.next = self.solve_q.q.val();
        self.refuse.next = self.refuse_q.q.val();
        self.refuse_outcome.next = self.outcome_q.q.val();
        self.refuse_detail.next = self.detail_q.q.val();
        self.query.next = self.query_q.q.val();
        self.switch.next = self.switch_q.q.val();
        self.switch_image.next = self.framer.message.val().get_bits::<12>(1);
        self.loading.next = (self.state.q.val() == ParseState::GotRows)
            | (self.state.q.val() == ParseState::ExpectLine)
            | (self.state.q.val() == ParseState::InLine);
        self.fifo_write_q.d.next = false;
        self.count_write_q.d.next = false;
        self.abort_q.d.next = false;
        self.solve_q.d.next = false;
        self.refuse_q.d.next = false;
        self.query_q.d.next = false;
        self.switch_q.d.next = false;

        // Bytes → messages; the line's silences.
        self.framer.clock.next = self.clock.val();
        self.framer.reset.next = self.reset.val();
        self.framer.rx_byte.next = self.rx_byte.val();
        self.framer.rx_byte_valid.next = self.rx_byte_valid.val();
        self.framer.rx_framing_error.next = self.rx_framing_error.val();
        if self.framer.timeout.val() {
            if self.state.q.val() == ParseState::GotRows {
                self.state.d.next = ParseState::Idle;
            }
            if (self.framer.half.val() & self.loading.val())
                | (self.state.q.val() == ParseState::ExpectLine)
                | (self.state.q.val() == ParseState::InLine)
            {
                self.refuse_q.d.next = true;
                self.outcome_q.d.next = self.malformed.val();
                self.detail_q.d.next = self.truncated.val();
                self.state.d.next = ParseState::Idle;
            }
        }

        // Decode a complete message into registered flags (one cycle), so
        // that the state machine below acts on short paths.
        self.act.d.next = self.framer.message_valid.val();
        if self.framer.message_valid.val() {
            self.is_start_board.d.next =
                self.framer.message.val().get_bits::<3>(13) == self.code_start_board.val();
            self.is_query.d.next = self.framer.message.val().get_bits::<3>(13) == self.code_query.val();
            self.is_switch.d.next = self.framer.message.val().get_bits::<3>(13) == self.code_switch.val();
            self.is_start_line.d.next =
                self.framer.message.val().get_bits::<3>(13) == self.code_start_line.val();
            self.is_end_board.d.next =
                self.framer.message.val().get_bits::<3>(13) == self.code_end_board.val();
            self.is_assign.d.next = self.framer.message.val().get_bits::<3>(13) == self.code_assign.val();
            self.is_end_line.d.next = self.framer.message.val().get_bits::<3>(13) == self.code_end_line.val();
            self.is_separator.d.next = (self.framer.message.val().get_bits::<3>(13)
                == self.code_next_option.val())
                | (self.framer.message.val().get_bits::<3>(13) == self.code_end_line.val());
            self.size_zero.d.next =
                (self.rows_q.q.val() == 0) | (self.framer.message.val().get_bits::<12>(1) == 0);
            self.size_too_big.d.next = (self.rows_q.q.val() > self.max_line.val())
                | (self.framer.message.val().get_bits::<12>(1) > self.max_line.val())
                | ((bit_cast::<13, 12>(self.rows_q.q.val())
                    + bit_cast::<13, 12>(self.framer.message.val().get_bits::<12>(1)))
                    > self.max_lines.val());
            self.is_next_line.d.next = (bit_cast::<12, LINE_ID_BITS>(self.line.q.val())
                == self.framer.message.val().get_bits::<12>(1))
                | (self.framer.message.val().get_bits::<12>(1) == 0);
            self.line_in_board.d.next = self.line.q.val() < self.total_lines.q.val();
            self.line_is_end.d.next = self.line.q.val() == self.total_lines.q.val();
            self.line_is_row.d.next = bit_cast::<12, LINE_ID_BITS>(self.line.q.val()) < self.rows_q.q.val();
            self.cell_in_line.d.next = self.framer.message.val().get_bits::<12>(1) < self.line_length.q.val();
        }

        // Act on it.
        if self.act.q.val() {
            if self.is_start_board.q.val() {
                if self.state.q.val() == ParseState::GotRows {
                    self.columns_q.d.next = self.framer.message.val().get_bits::<12>(1);
                    self.total_lines.d.next = bit_cast::<LINE_ID_BITS, 12>(self.rows_q.q.val())
                        + bit_cast::<LINE_ID_BITS, 12>(self.framer.message.val().get_bits::<12>(1));
                    self.line.d.next = 0.into();
                    self.state.d.next = ParseState::ExpectLine;
                    if self.framer.message.val().get_bit(0) {
                        // A board of clues (protocol v2): this build has no clue engine.
                        self.refuse_q.d.next = true;
                        self.outcome_q.d.next = self.over_capacity.val();
                        self.detail_q.d.next = self.no_engine.val();
                        self.state.d.next = ParseState::Idle;
                    } else if self.size_zero.q.val() {
                        self.refuse_q.d.next = true;
                        self.outcome_q.d.next = self.malformed.val();
                        self.detail_q.d.next = self.bad_size.val();
                        self.state.d.next = ParseState::Idle;
                    } else if self.size_too_big.q.val() {
                        self.refuse_q.d.next = true;
                        self.outcome_q.d.next = self.over_capacity.val();
                        self.detail_q.d.next = self.bad_size.val();
                        self.state.d.next = ParseState::Idle;
                    }
                } else {
                    // The first of a pair: a new board, whatever was going on.
                    self.abort_q.d.next = true;
                    self.rows_q.d.next = self.framer.message.val().get_bits::<12>(1);
                    self.state.d.next = ParseState::GotRows;
                }
            } else if self.is_query.q.val() {
                self.abort_q.d.next = true;
                self.query_q.d.next = true;
                self.state.d.next = ParseState::Idle;
            } else if self.is_switch.q.val()
                & ((self.state.q.val() == ParseState::Idle) | (self.state.q.val() == ParseState::Solving))
            {
                // Outside a board: the core reboots if it is idle.
                self.switch_q.d.next = true;
            } else {
                match self.state.q.val() {
                    ParseState::GotRows => {
                        self.refuse_q.d.next = true;
                        self.outcome_q.d.next = self.malformed.val();
                        self.detail_q.d.next = self.unexpected.val();
                        self.state.d.next = ParseState::Idle;
                    }
                    ParseState::ExpectLine => {
                        self.refuse_q.d.next = true;
                        self.outcome_q.d.next = self.malformed.val();
                        self.detail_q.d.next = self.unexpected.val();
                        self.state.d.next = ParseState::Idle;
                        if self.is_start_line.q.val() {
                            if self.is_next_line.q.val() & self.line_in_board.q.val() {
                                self.refuse_q.d.next = false;
                                self.state.d.next = ParseState::InLine;
                                self.option_q.d.next = 0.into();
                                self.line_options.d.next = 0.into();
                                // Rows are as long as there are columns, and vice versa.
                                if self.line_is_row.q.val() {
                                    self.line_length.d.next = self.columns_q.q.val();
                                } else {
                                    self.line_length.d.next = self.rows_q.q.val();
                                }
                            } else {
                                self.detail_q.d.next = self.wrong_line.val();
                            }
                        }
                        if self.is_end_board.q.val() {
                            if self.line_is_end.q.val() {
                                self.refuse_q.d.next = false;
                                self.solve_q.d.next = true;
                                self.state.d.next = ParseState::Solving;
                            } else {
                                self.detail_q.d.next = self.wrong_line.val();
                            }
                        }
                    }
                    ParseState::InLine => {
                        if self.is_assign.q.val() {
                            if self.cell_in_line.q.val() {
                                self.option_q.d.next = self.option_q.q.val().replace_bit(
                                    self.framer.message.val().get_bits::<12>(1).index(),
                                    self.framer.message.val().get_bit(0),
                                );
                            } else {
                                self.refuse_q.d.next = true;
                                self.outcome_q.d.next = self.malformed.val();
                                self.detail_q.d.next = self.cell_out_of_line.val();
                                self.state.d.next = ParseState::Idle;
                            }
                        } else if self.is_separator.q.val() {
                            if self.fifo_full.val() {
                                self.refuse_q.d.next = true;
                                self.outcome_q.d.next = self.over_capacity.val();
                                self.detail_q.d.next = self.fifo_full_detail.val();
                                self.state.d.next = ParseState::Idle;
                            } else {
                                self.fifo_write_q.d.next = true;
                                self.line_options.d.next = self.line_options.q.val() + 1;
                                if self.is_end_line.q.val() {
                                    self.state.d.next = ParseState::EndLine;
                                }
                            }
                        } else {
                            self.refuse_q.d.next = true;
                            self.outcome_q.d.next = self.malformed.val();
                            self.detail_q.d.next = self.unexpected.val();
                            self.state.d.next = ParseState::Idle;
                        }
                    }
                    _ => {}
                }
            }
        }
        // The option just written is cleared for the next one.
        if self.fifo_write_q.q.val() {
            self.option_q.d.next = 0.into();
        }
        if self.state.q.val() == ParseState::EndLine {
            self.count_write_q.d.next = true;
            self.state.d.next = ParseState::NextLine;
        }
        if self.state.q.val() == ParseState::NextLine {
            self.line.d.next = self.line.q.val() + 1;
            self.state.d.next = ParseState::ExpectLine;
        }
        // A lost byte still took its place in the stream: the message it
        // belonged to is dropped whole (its other byte too), so the next
        // message pairs up as sent.
        if self.rx_framing_error.val() {
            if self.loading.val() {
                self.refuse_q.d.next = true;
                self.outcome_q.d.next = self.malformed.val();
                self.detail_q.d.next = self.framing.val();
                self.state.d.next = ParseState::Idle;
            }
        }
        if self.reset.val() {
            self.state.d.next = ParseState::Idle;
            self.abort_q.d.next = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_check};
    use crate::dnf::options::LineOptions;
    use crate::link::protocol::{encode_board, status::detail, status::outcome, Message, IDLE_TIMEOUT_BITS};

    const CPB: u32 = 4;

    /// The parser with a stand-in FIFO that records what it is given.
    struct Harness {
        uut: MessageParser,
        capacity: usize,
        options: Vec<u64>,
        counts: Vec<(usize, usize)>,
        solved: usize,
        refused: Vec<(u8, u8)>,
        aborts: usize,
        queries: usize,
    }

    impl Harness {
        fn new(capacity: usize) -> Harness {
            let mut uut = MessageParser::new(CPB);
            uut.connect_all();
            Harness {
                uut,
                capacity,
                options: vec![],
                counts: vec![],
                solved: 0,
                refused: vec![],
                aborts: 0,
                queries: 0,
            }
        }

        fn cycle(&mut self) {
            self.uut.fifo_full.next = self.options.len() >= self.capacity;
            tick(&mut self.uut, |u| &mut u.clock);
            self.uut.rx_byte_valid.next = false;
            self.uut.rx_framing_error.next = false;
            let u = &self.uut;
            if u.fifo_write.val() && self.options.len() < self.capacity {
                self.options.push(u.option.val().to_u64());
            }
            if u.count_write.val() {
                self.counts
                    .push((u.count_line.val().index(), u.count.val().index()));
            }
            self.solved += u.board_loaded.val() as usize;
            self.aborts += u.abort.val() as usize;
            self.queries += u.query.val() as usize;
            if u.refuse.val() {
                self.refused
                    .push((u.refuse_outcome.val().to_u8(), u.refuse_detail.val().to_u8()));
            }
        }

        /// Bytes as the UART delivers them: one per 10 bit times.
        fn send(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.uut.rx_byte.next = (b as u64).into();
                self.uut.rx_byte_valid.next = true;
                for _ in 0..10 * CPB {
                    self.cycle();
                }
            }
        }

        /// A byte lost to a framing error, in the time of one byte.
        fn lose_byte(&mut self) {
            self.uut.rx_framing_error.next = true;
            for _ in 0..10 * CPB {
                self.cycle();
            }
        }

        fn wait_cycles(&mut self, cycles: u32) {
            for _ in 0..cycles {
                self.cycle();
            }
        }

        fn send_messages(&mut self, messages: &[Message]) {
            let bytes: Vec<u8> = messages.iter().flat_map(|m| m.to_bytes()).collect();
            self.send(&bytes);
        }

        fn wait_bits(&mut self, bits: u32) {
            for _ in 0..bits * CPB {
                self.cycle();
            }
        }
    }

    fn board_lines(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<Vec<u64>> {
        rows.iter()
            .map(|c| LineOptions::new(c, columns.len()).collect())
            .chain(columns.iter().map(|c| LineOptions::new(c, rows.len()).collect()))
            .collect()
    }

    fn heart() -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
        let columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
        (rows, columns)
    }

    fn stream(rows: &[Vec<usize>], columns: &[Vec<usize>], every_cell: bool) -> Vec<u8> {
        let mut bytes = vec![];
        encode_board(
            rows.len(),
            columns.len(),
            board_lines(rows, columns),
            every_cell,
            &mut bytes,
        );
        bytes
    }

    #[test]
    fn loads_a_board_in_both_encodings() {
        let (rows, columns) = heart();
        let lines = board_lines(&rows, &columns);
        for every_cell in [false, true] {
            let mut h = Harness::new(1 << 20);
            h.send(&stream(&rows, &columns, every_cell));
            h.wait_bits(2);
            assert_eq!(h.refused, vec![], "every_cell={every_cell}");
            assert_eq!(h.solved, 1);
            assert_eq!(h.aborts, 1);
            assert_eq!((h.uut.rows.val().index(), h.uut.columns.val().index()), (6, 7));
            assert_eq!(h.options, lines.concat());
            let counts: Vec<(usize, usize)> = lines.iter().map(Vec::len).enumerate().collect();
            assert_eq!(h.counts, counts);
            assert!(!h.uut.loading.val());
        }
    }

    #[test]
    fn refuses_what_breaks_the_protocol() {
        let m = |code, index, value| Message::new(code, index, value);
        let header = |r, c| vec![m(code::START_BOARD, r, false), m(code::START_BOARD, c, false)];
        let cases: Vec<(&str, Vec<Message>, (u8, u8))> = vec![
            ("zero rows", header(0, 3), (outcome::MALFORMED, detail::BAD_SIZE)),
            (
                "too many columns",
                header(3, 33),
                (outcome::OVER_CAPACITY, detail::BAD_SIZE),
            ),
            (
                "a board of clues (v2)",
                vec![m(code::START_BOARD, 3, true), m(code::START_BOARD, 3, true)],
                (outcome::OVER_CAPACITY, detail::NO_ENGINE),
            ),
            (
                "lone START_BOARD then a line",
                vec![m(code::START_BOARD, 3, false), m(code::START_LINE, 0, false)],
                (outcome::MALFORMED, detail::UNEXPECTED),
            ),
            (
                "line out of order",
                [header(2, 2), vec![m(code::START_LINE, 1, false)]].concat(),
                (outcome::MALFORMED, detail::WRONG_LINE),
            ),
            (
                "assign outside a line",
                [header(2, 2), vec![m(code::ASSIGN, 0, true)]].concat(),
                (outcome::MALFORMED, detail::UNEXPECTED),
            ),
            (
                "cell past the line",
                [
                    header(2, 3),
                    vec![m(code::START_LINE, 0, false), m(code::ASSIGN, 3, true)],
                ]
                .concat(),
                (outcome::MALFORMED, detail::CELL_OUT_OF_LINE),
            ),
            (
                "column cell past the line",
                [
                    header(2, 3),
                    vec![
                        m(code::START_LINE, 0, false),
                        m(code::END_LINE, 0, false),
                        m(code::START_LINE, 1, false),
                        m(code::END_LINE, 0, false),
                        m(code::START_LINE, 2, false),
                        m(code::ASSIGN, 2, true),
                    ],
                ]
                .concat(),
                (outcome::MALFORMED, detail::CELL_OUT_OF_LINE),
            ),
            (
                "END_BOARD too early",
                [
                    header(1, 1),
                    vec![
                        m(code::START_LINE, 0, false),
                        m(code::END_LINE, 0, false),
                        m(code::END_BOARD, 0, false),
                    ],
                ]
                .concat(),
                (outcome::MALFORMED, detail::WRONG_LINE),
            ),
            (
                "too many lines",
                [
                    header(1, 1),
                    vec![
                        m(code::START_LINE, 0, false),
                        m(code::END_LINE, 0, false),
                        m(code::START_LINE, 1, false),
                        m(code::END_LINE, 0, false),
                        m(code::START_LINE, 2, false),
                    ],
                ]
                .concat(),
                (outcome::MALFORMED, detail::WRONG_LINE),
            ),
            (
                "END_BOARD inside a line",
                [
                    header(1, 1),
                    vec![m(code::START_LINE, 0, false), m(code::END_BOARD, 0, false)],
                ]
                .concat(),
                (outcome::MALFORMED, detail::UNEXPECTED),
            ),
        ];
        for (name, messages, expected) in cases {
            let mut h = Harness::new(1 << 20);
            h.send_messages(&messages);
            assert_eq!(h.refused, vec![expected], "{name}");
            assert_eq!(h.solved, 0, "{name}");
            // And the parser comes back: a good board right after loads.
            h.wait_bits(100);
            h.send(&stream(&[vec![1]], &[vec![1]], false));
            assert_eq!((h.refused.len(), h.solved), (1, 1), "{name}: recovery");
        }
    }

    #[test]
    fn refuses_a_board_over_the_fifo_capacity() {
        let (rows, columns) = heart();
        let total: usize = board_lines(&rows, &columns).iter().map(Vec::len).sum();
        let mut h = Harness::new(total - 1);
        h.send(&stream(&rows, &columns, false));
        assert_eq!(h.refused, vec![(outcome::OVER_CAPACITY, detail::FIFO_FULL)]);
        assert_eq!(h.solved, 0);
        let mut h = Harness::new(total);
        h.send(&stream(&rows, &columns, false));
        assert_eq!((h.refused.len(), h.solved), (0, 1), "exactly full fits");
    }

    #[test]
    fn start_board_restarts_at_any_point() {
        let (rows, columns) = heart();
        let good = stream(&rows, &columns, false);
        let mut h = Harness::new(1 << 20);
        h.send(&good[..good.len() / 2]);
        h.send(&good);
        assert_eq!((h.refused.len(), h.solved, h.aborts), (0, 1, 2));
        let lines = board_lines(&rows, &columns).concat();
        assert_eq!(
            h.options[h.options.len() - lines.len()..],
            lines[..],
            "the second board's options come last"
        );
    }

    #[test]
    fn idle_line_drops_a_half_message_and_a_lone_start() {
        let mut h = Harness::new(1 << 20);
        // A stray byte, silence, then a good board: the stray byte is forgotten.
        h.send(&[0xe0]);
        h.wait_bits(IDLE_TIMEOUT_BITS + 5);
        h.send(&stream(&[vec![1]], &[vec![1]], false));
        assert_eq!((h.refused.len(), h.solved), (0, 1));
        // A lone START_BOARD, silence, then a good board.
        let mut h = Harness::new(1 << 20);
        h.send_messages(&[Message::new(code::START_BOARD, 5, false)]);
        h.wait_bits(IDLE_TIMEOUT_BITS + 5);
        h.send(&stream(&[vec![1]], &[vec![1]], false));
        assert_eq!((h.refused.len(), h.solved), (0, 1));
        // Without the silence the stray START_BOARD pairs with the board's first.
        let mut h = Harness::new(1 << 20);
        h.send_messages(&[Message::new(code::START_BOARD, 5, false)]);
        h.send(&stream(&[vec![1]], &[vec![1]], false));
        assert_eq!(h.solved, 0);
        // A board cut in the middle of a message is refused once the line is idle.
        let mut h = Harness::new(1 << 20);
        let good = stream(&[vec![1]], &[vec![1]], false);
        h.send(&good[..7]);
        h.wait_bits(IDLE_TIMEOUT_BITS + 5);
        assert_eq!(h.refused, vec![(outcome::MALFORMED, detail::TRUNCATED)]);
    }

    /// The original design's host: START_LINE 0 for every line, every cell
    /// of every option sent, zeros included (built here from messages, not
    /// with `encode_board`).
    #[test]
    fn loads_the_original_hosts_stream_with_start_line_zero() {
        let (rows, columns) = heart();
        let lines = board_lines(&rows, &columns);
        let mut messages = vec![
            Message::new(code::START_BOARD, rows.len() as u16, false),
            Message::new(code::START_BOARD, columns.len() as u16, false),
        ];
        for (line, options) in lines.iter().enumerate() {
            let length = if line < rows.len() {
                columns.len()
            } else {
                rows.len()
            };
            messages.push(Message::new(code::START_LINE, 0, false));
            for (k, option) in options.iter().enumerate() {
                for cell in 0..length {
                    messages.push(Message::new(code::ASSIGN, cell as u16, option >> cell & 1 == 1));
                }
                let last = k + 1 == options.len();
                messages.push(Message::new(
                    if last { code::END_LINE } else { code::NEXT_OPTION },
                    0,
                    false,
                ));
            }
        }
        messages.push(Message::new(code::END_BOARD, 0, false));
        let mut h = Harness::new(1 << 20);
        h.send_messages(&messages);
        h.wait_bits(2);
        assert_eq!((h.refused.clone(), h.solved), (vec![], 1));
        assert_eq!(h.options, lines.concat());
        // START_LINE 0 past the last line is still refused.
        let mut h = Harness::new(1 << 20);
        let n = messages.len();
        messages.insert(n - 1, Message::new(code::START_LINE, 0, false));
        h.send_messages(&messages);
        assert_eq!(h.refused, vec![(outcome::MALFORMED, detail::WRONG_LINE)]);
    }

    #[test]
    fn a_framing_error_drops_its_message_and_refuses_the_board() {
        let (rows, columns) = heart();
        let good = stream(&rows, &columns, false);
        let lines = board_lines(&rows, &columns).concat();
        // Outside a board, a lost high byte or low byte: the message is
        // dropped whole and the next one pairs up as sent.
        for lost in [0, 1] {
            let mut h = Harness::new(1 << 20);
            let query = Message::new(code::QUERY, 0, false).to_bytes();
            if lost == 0 {
                h.lose_byte();
                h.send(&query[1..]);
            } else {
                h.send(&query[..1]);
                h.lose_byte();
            }
            h.send(&good);
            assert_eq!(
                (h.refused.len(), h.solved, h.queries),
                (0, 1, 0),
                "lost byte {lost}"
            );
        }
        // Inside a board (from the first START_BOARD's end), at every byte:
        // refused as FRAMING, then the next board loads whole.
        for at in 2..good.len() {
            let mut h = Harness::new(1 << 20);
            h.send(&good[..at]);
            h.lose_byte();
            h.send(&good[at + 1..]);
            h.send(&good);
            assert_eq!(
                h.refused,
                vec![(outcome::MALFORMED, detail::FRAMING)],
                "byte {at}"
            );
            assert_eq!(h.solved, 1, "byte {at}");
            assert_eq!(h.options[h.options.len() - lines.len()..], lines[..], "byte {at}");
        }
    }

    #[test]
    fn a_board_cut_between_messages_is_refused_as_truncated() {
        let (rows, columns) = heart();
        let good = stream(&rows, &columns, false);
        for at in (4..good.len() - 2).step_by(2).chain([good.len() - 2]) {
            let mut h = Harness::new(1 << 20);
            h.send(&good[..at]);
            h.wait_bits(IDLE_TIMEOUT_BITS + 5);
            assert_eq!(
                h.refused,
                vec![(outcome::MALFORMED, detail::TRUNCATED)],
                "cut at {at}"
            );
            h.send(&good);
            assert_eq!(h.solved, 1, "cut at {at}");
        }
    }

    #[test]
    fn a_byte_in_the_idle_timeouts_cycle_is_kept() {
        let query = Message::new(code::QUERY, 0, false).to_bytes();
        let timeout = IDLE_TIMEOUT_BITS * CPB;
        // `send` takes 10 bit times per byte: with a gap of `timeout` − 10
        // bit times, the second QUERY's first byte arrives in the very cycle
        // the idle timeout drops half messages. It must be kept.
        for gap in timeout - 10 * CPB - 1..=timeout - 10 * CPB + 1 {
            let mut h = Harness::new(1 << 20);
            h.send(&query);
            h.wait_cycles(gap);
            h.send(&query);
            assert_eq!(h.queries, 2, "gap {gap}");
        }
    }

    #[test]
    fn query_is_answered_and_ignored_bytes_do_no_harm() {
        let mut h = Harness::new(1 << 20);
        h.send(&Message::new(code::QUERY, 0, false).to_bytes());
        assert_eq!(h.queries, 1);
        // Messages with no board are ignored.
        h.send_messages(&[
            Message::new(code::ASSIGN, 3, true),
            Message::new(code::END_BOARD, 0, false),
        ]);
        assert_eq!((h.refused.len(), h.solved), (0, 0));
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = MessageParser::new(10417);
        uut.connect_all();
        yosys_check(&uut, "parser");
    }
}
