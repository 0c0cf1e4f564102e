//! Message parser of protocol v2 (a board described by its clues): the body
//! of a board behind the shared front end (`link/session.rs`: the framer,
//! START_BOARD and its version, sizes, QUERY, SWITCH, silences, lost bytes
//! and the refusal). It writes every block length into the clue engine's
//! clue store and each line's first block and block count into its line
//! table, and checks the lines. Any violation ends the board with a
//! `refuse` pulse (outcome and detail for the reply).
//!
//! The stream (docs/protocol.md, "Protocol v2"): START_BOARD m, START_BOARD
//! n with value 1; per line, START_LINE (its number, or 0 for the next line)
//! and its blocks two per BLOCKS message; END_BOARD after the last line,
//! its index the search budget. A board of options (protocol v1) is refused
//! as NO_ENGINE by the session: this build has only the clue engine.
//!
//! Messages come at most one per 20 bit times, so each is decoded into
//! registered flags in one cycle and acted on in the next, and the second
//! block of a BLOCKS message is written the cycle after the first.

use crate::clue::clue_model::{MAX_BLOCKS_PER_LINE, MAX_SIDE};
use crate::clue::clue_store::CLUE_STORE_BITS;
use crate::constant;
use crate::link::framer::MessageFramer;
use crate::link::protocol::{code, status};
use crate::link::session::BoardSession;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum LineState {
    /// Got the size: line 0's START_LINE must follow.
    ExpectFirstLine,
    /// Inside a line: BLOCKS, the next START_LINE, or END_BOARD after the last line.
    InLine,
}

#[derive(LogicBlock)]
pub struct ClueParser {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Bytes from the UART receiver.
    pub rx_byte: Signal<In, Bits<8>>,
    pub rx_byte_valid: Signal<In, Bit>,
    pub rx_framing_error: Signal<In, Bit>,
    /// Store block `clue_length` at `clue_address`.
    pub clue_write: Signal<Out, Bit>,
    pub clue_address: Signal<Out, Bits<CLUE_STORE_BITS>>,
    pub clue_length: Signal<Out, Bits<7>>,
    /// Line `line_number` has `line_blocks` blocks from `line_first` on.
    pub line_write: Signal<Out, Bit>,
    pub line_number: Signal<Out, Bits<7>>,
    pub line_first: Signal<Out, Bits<CLUE_STORE_BITS>>,
    pub line_blocks: Signal<Out, Bits<6>>,
    /// The board's size (valid from the second START_BOARD on).
    pub rows: Signal<Out, Bits<7>>,
    pub columns: Signal<Out, Bits<7>>,
    /// Pulse: a new board or a query began; drop whatever was going on.
    pub abort: Signal<Out, Bit>,
    /// Pulse: the board is loaded (END_BOARD); solve it.
    pub board_loaded: Signal<Out, Bit>,
    /// With `board_loaded`: END_BOARD's index, the search budget in units of
    /// 2^20 cycles (0: line logic alone).
    pub budget: Signal<Out, Bits<12>>,
    /// With `board_loaded`: END_BOARD's value bit, first-solution mode.
    pub first_only: Signal<Out, Bit>,
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
    is_blocks: DFF<Bit>,
    is_end_board: DFF<Bit>,
    total_lines: DFF<Bits<8>>,
    line: DFF<Bits<8>>,
    /// Blocks stored so far (the next block's address), and in this line.
    stored: DFF<Bits<12>>,
    first: DFF<Bits<CLUE_STORE_BITS>>,
    blocks: DFF<Bits<6>>,
    /// The second block of the last BLOCKS message, written next cycle.
    second_pending: DFF<Bit>,
    second: DFF<Bits<7>>,
    // Registered outputs.
    clue_write_q: DFF<Bit>,
    clue_length_q: DFF<Bits<7>>,
    clue_address_q: DFF<Bits<CLUE_STORE_BITS>>,
    line_write_q: DFF<Bit>,
    budget_q: DFF<Bits<12>>,
    first_only_q: DFF<Bit>,
    /// A block can be stored: its line and the store have room. Registered
    /// (as `no_room`, low at power-up, when nothing is stored), set where
    /// `stored` and `blocks` change: its compares on `stored` and `blocks`
    /// on the way into `refuse` (and on into the session's refusal
    /// registers) missed 100 MHz on nextpnr seeds.
    room: Signal<Local, Bit>,
    no_room: DFF<Bit>,
    /// A block stored now leaves room for the next.
    room_after: Signal<Local, Bit>,
    /// The message's decode, as it arrives (registered into the flags).
    start_line_now: Signal<Local, Bit>,
    blocks_now: Signal<Local, Bit>,
    end_board_now: Signal<Local, Bit>,
    next_line_now: Signal<Local, Bit>,
    /// `line + 1`, and whether that is the board's line count, registered:
    /// the adder in front of the refusal's compares was a critical path of
    /// the probing image.
    line_after: DFF<Bits<8>>,
    line_is_last: DFF<Bit>,
    last_line_now: Signal<Local, Bit>,
    /// Whether the message is refused if the body takes it, and how; decided
    /// as it arrives, a cycle before `take`. Deciding at `take` put the
    /// flags, the state and `room` in front of the session's refusal
    /// registers, a path that missed 100 MHz in the three-image flash. The
    /// parser's state, line and room cannot change in between: they change
    /// only with `take` and the cycle after, and a message takes 20 bit
    /// times to arrive.
    refused_if_taken: DFF<Bit>,
    refusal_outcome: DFF<Bits<3>>,
    refusal_detail: DFF<Bits<8>>,
    /// The body takes the message and does not refuse it.
    accepted: Signal<Local, Bit>,
    store_size: Constant<Bits<12>>,
    last_block: Constant<Bits<6>>,
    last_address: Constant<Bits<12>>,
    code_start_line: Constant<Bits<3>>,
    code_blocks: Constant<Bits<3>>,
    code_end_board: Constant<Bits<3>>,
    malformed: Constant<Bits<3>>,
    over_capacity: Constant<Bits<3>>,
    unexpected: Constant<Bits<8>>,
    wrong_line: Constant<Bits<8>>,
    too_many_blocks: Constant<Bits<8>>,
}

impl ClueParser {
    pub fn new(clocks_per_bit: u32) -> ClueParser {
        ClueParser::with_framer(MessageFramer::new(clocks_per_bit), MAX_SIDE)
    }

    /// A parser that refuses boards over `max_side` a side (a narrow
    /// engine's).
    pub fn with_side(clocks_per_bit: u32, max_side: usize) -> ClueParser {
        ClueParser::with_framer(MessageFramer::new(clocks_per_bit), max_side)
    }

    /// A parser whose idle timeout is `cycles` clock cycles (the formal
    /// checks use a short one).
    pub fn with_idle_cycles(cycles: u64) -> ClueParser {
        ClueParser::with_framer(MessageFramer::with_idle_cycles(cycles), MAX_SIDE)
    }

    fn with_framer(framer: MessageFramer, max_side: usize) -> ClueParser {
        ClueParser {
            clock: Default::default(),
            reset: Default::default(),
            rx_byte: Default::default(),
            rx_byte_valid: Default::default(),
            rx_framing_error: Default::default(),
            clue_write: Default::default(),
            clue_address: Default::default(),
            clue_length: Default::default(),
            line_write: Default::default(),
            line_number: Default::default(),
            line_first: Default::default(),
            line_blocks: Default::default(),
            rows: Default::default(),
            columns: Default::default(),
            abort: Default::default(),
            board_loaded: Default::default(),
            budget: Default::default(),
            first_only: Default::default(),
            refuse: Default::default(),
            refuse_outcome: Default::default(),
            refuse_detail: Default::default(),
            query: Default::default(),
            switch: Default::default(),
            switch_image: Default::default(),
            loading: Default::default(),
            // Up to `max_side` a side, and any two sides fit together.
            session: BoardSession::new(framer, true, max_side as u64, None),
            message_code: Default::default(),
            message_index: Default::default(),
            state: Default::default(),
            is_start_line: Default::default(),
            is_blocks: Default::default(),
            is_end_board: Default::default(),
            total_lines: Default::default(),
            line: Default::default(),
            stored: Default::default(),
            first: Default::default(),
            blocks: Default::default(),
            second_pending: Default::default(),
            second: Default::default(),
            clue_write_q: Default::default(),
            clue_length_q: Default::default(),
            clue_address_q: Default::default(),
            line_write_q: Default::default(),
            budget_q: Default::default(),
            first_only_q: Default::default(),
            room: Default::default(),
            no_room: Default::default(),
            room_after: Default::default(),
            start_line_now: Default::default(),
            blocks_now: Default::default(),
            end_board_now: Default::default(),
            next_line_now: Default::default(),
            line_after: Default::default(),
            line_is_last: Default::default(),
            last_line_now: Default::default(),
            refused_if_taken: Default::default(),
            refusal_outcome: Default::default(),
            refusal_detail: Default::default(),
            accepted: Default::default(),
            store_size: constant(1u64 << CLUE_STORE_BITS),
            last_block: constant(MAX_BLOCKS_PER_LINE as u64 - 1),
            last_address: constant((1u64 << CLUE_STORE_BITS) - 1),
            code_start_line: constant(code::START_LINE),
            code_blocks: constant(code::ASSIGN),
            code_end_board: constant(code::END_BOARD),
            malformed: constant(status::outcome::MALFORMED),
            over_capacity: constant(status::outcome::OVER_CAPACITY),
            unexpected: constant(status::detail::UNEXPECTED),
            wrong_line: constant(status::detail::WRONG_LINE),
            too_many_blocks: constant(status::detail::TOO_MANY_BLOCKS),
        }
    }
}

impl Logic for ClueParser {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            is_start_line,
            is_blocks,
            is_end_board,
            total_lines,
            line,
            stored,
            first,
            blocks,
            second_pending,
            second,
            clue_write_q,
            clue_length_q,
            clue_address_q,
            line_write_q,
            budget_q,
            first_only_q,
            no_room,
            refused_if_taken,
            line_after,
            line_is_last,
            refusal_outcome,
            refusal_detail
        );
        // The session: bytes in; boards begun, refused, queried.
        self.session.clock.next = self.clock.val();
        self.session.reset.next = self.reset.val();
        self.session.rx_byte.next = self.rx_byte.val();
        self.session.rx_byte_valid.next = self.rx_byte_valid.val();
        self.session.rx_framing_error.next = self.rx_framing_error.val();
        self.rows.next = bit_cast::<7, 12>(self.session.rows.val());
        self.columns.next = bit_cast::<7, 12>(self.session.columns.val());
        self.abort.next = self.session.abort.val();
        self.board_loaded.next = self.session.board_loaded.val();
        self.refuse.next = self.session.refuse.val();
        self.refuse_outcome.next = self.session.refuse_outcome.val();
        self.refuse_detail.next = self.session.refuse_detail.val();
        self.query.next = self.session.query.val();
        self.switch.next = self.session.switch.val();
        self.switch_image.next = self.session.switch_image.val();
        self.loading.next = self.session.loading.val();
        // The body: clues, line table entries and the search's orders out.
        self.clue_write.next = self.clue_write_q.q.val();
        self.clue_address.next = self.clue_address_q.q.val();
        self.clue_length.next = self.clue_length_q.q.val();
        self.line_write.next = self.line_write_q.q.val();
        self.line_number.next = bit_cast::<7, 8>(self.line.q.val());
        self.line_first.next = self.first.q.val();
        self.line_blocks.next = self.blocks.q.val();
        self.budget.next = self.budget_q.q.val();
        self.first_only.next = self.first_only_q.q.val();
        self.clue_write_q.d.next = false;
        self.line_write_q.d.next = false;
        self.second_pending.d.next = false;
        self.room.next = !self.no_room.q.val();
        self.room_after.next =
            (self.blocks.q.val() != self.last_block.val()) & (self.stored.q.val() != self.last_address.val());
        self.session.body.listening.next = true;
        self.session.body.finish.next = false;
        self.session.body.refuse.next = false;
        self.session.body.outcome.next = self.malformed.val();
        self.session.body.detail.next = self.unexpected.val();

        self.message_code.next = self.session.body.message.val().get_bits::<3>(13);
        self.message_index.next = self.session.body.message.val().get_bits::<12>(1);

        // The second START_BOARD: line 0's START_LINE comes next.
        if self.session.body.begin.val() {
            self.total_lines.d.next =
                bit_cast::<8, 12>(self.session.body.rows.val()) + bit_cast::<8, 12>(self.message_index.val());
            self.state.d.next = LineState::ExpectFirstLine;
        }

        // Decode a complete message into registered flags, and decide its
        // refusal (UNEXPECTED unless a case wants the message).
        self.start_line_now.next = self.message_code.val() == self.code_start_line.val();
        self.blocks_now.next = self.message_code.val() == self.code_blocks.val();
        self.end_board_now.next = self.message_code.val() == self.code_end_board.val();
        // START_LINE 0 always means the next line.
        self.next_line_now.next = (bit_cast::<12, 8>(self.line_after.q.val()) == self.message_index.val())
            | (self.message_index.val() == 0);
        self.last_line_now.next = self.line_is_last.q.val();
        // (A cycle behind `line`, which changes only with `take`, a message
        // before the next decision.)
        self.line_after.d.next = self.line.q.val() + 1;
        self.line_is_last.d.next = self.line.q.val() + 1 == self.total_lines.q.val();
        if self.session.body.message_valid.val() {
            self.is_start_line.d.next = self.start_line_now.val();
            self.is_blocks.d.next = self.blocks_now.val();
            self.is_end_board.d.next = self.end_board_now.val();
            self.refused_if_taken.d.next = true;
            self.refusal_outcome.d.next = self.malformed.val();
            self.refusal_detail.d.next = self.unexpected.val();
            match self.state.q.val() {
                LineState::ExpectFirstLine => {
                    if self.start_line_now.val() {
                        if self.message_index.val() == 0 {
                            self.refused_if_taken.d.next = false;
                        } else {
                            self.refusal_detail.d.next = self.wrong_line.val();
                        }
                    }
                    if self.end_board_now.val() {
                        self.refusal_detail.d.next = self.wrong_line.val();
                    }
                }
                LineState::InLine => {
                    if self.start_line_now.val() {
                        if self.next_line_now.val() & !self.last_line_now.val() {
                            self.refused_if_taken.d.next = false;
                        } else {
                            self.refusal_detail.d.next = self.wrong_line.val();
                        }
                    }
                    if self.blocks_now.val() {
                        if self.room.val() {
                            self.refused_if_taken.d.next = false;
                        } else {
                            self.refusal_outcome.d.next = self.over_capacity.val();
                            self.refusal_detail.d.next = self.too_many_blocks.val();
                        }
                    }
                    if self.end_board_now.val() {
                        if self.last_line_now.val() {
                            self.refused_if_taken.d.next = false;
                        } else {
                            self.refusal_detail.d.next = self.wrong_line.val();
                        }
                    }
                }
            }
        }

        // Act on it: a message not refused is the one its state wants.
        self.accepted.next = self.session.body.take.val() & !self.refused_if_taken.q.val();
        if self.session.body.take.val() {
            self.session.body.refuse.next = self.refused_if_taken.q.val();
            self.session.body.outcome.next = self.refusal_outcome.q.val();
            self.session.body.detail.next = self.refusal_detail.q.val();
        }
        if self.accepted.val() & self.is_start_line.q.val() {
            // (Line 0 when the state expects the first line.)
            self.line.d.next = self.line.q.val() + 1;
            self.first.d.next = bit_cast::<CLUE_STORE_BITS, 12>(self.stored.q.val());
            self.blocks.d.next = 0.into();
            self.no_room.d.next = self.stored.q.val() == self.store_size.val();
            self.line_write_q.d.next = true;
            if self.state.q.val() == LineState::ExpectFirstLine {
                self.state.d.next = LineState::InLine;
                self.line.d.next = 0.into();
                self.first.d.next = 0.into();
                self.stored.d.next = 0.into();
                self.no_room.d.next = false;
            }
        }
        if self.accepted.val() & self.is_blocks.q.val() {
            self.clue_write_q.d.next = true;
            self.clue_address_q.d.next = bit_cast::<CLUE_STORE_BITS, 12>(self.stored.q.val());
            self.clue_length_q.d.next =
                bit_cast::<7, 6>(self.session.body.message.val().get_bits::<6>(7)) + 1;
            self.stored.d.next = self.stored.q.val() + 1;
            self.blocks.d.next = self.blocks.q.val() + 1;
            self.no_room.d.next = !self.room_after.val();
            self.line_write_q.d.next = true;
            self.second_pending.d.next = self.session.body.message.val().get_bit(0);
            self.second.d.next = bit_cast::<7, 6>(self.session.body.message.val().get_bits::<6>(1)) + 1;
        }
        if self.accepted.val() & self.is_end_board.q.val() {
            self.session.body.finish.next = true;
            self.budget_q.d.next = self.message_index.val();
            self.first_only_q.d.next = self.session.body.message.val().get_bit(0);
        }
        // The second block of a BLOCKS message, a cycle after the first.
        if self.second_pending.q.val() {
            if self.room.val() {
                self.clue_write_q.d.next = true;
                self.clue_address_q.d.next = bit_cast::<CLUE_STORE_BITS, 12>(self.stored.q.val());
                self.clue_length_q.d.next = self.second.q.val();
                self.stored.d.next = self.stored.q.val() + 1;
                self.blocks.d.next = self.blocks.q.val() + 1;
                self.no_room.d.next = !self.room_after.val();
                self.line_write_q.d.next = true;
            } else {
                self.session.body.refuse.next = true;
                self.session.body.outcome.next = self.over_capacity.val();
                self.session.body.detail.next = self.too_many_blocks.val();
            }
        }
    }
}

#[cfg(test)]
mod tests;
