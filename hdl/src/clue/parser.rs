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
//! Built for colour (`with_colours`), it parses protocol v3 instead
//! (docs/protocol.md, "Wire protocol v3"): COLOURS after the START_BOARD
//! pair (its ink count, 1 to the build's most), then one block a BLOCK
//! message, each with its ink (1 to the board's count), which goes out with
//! its length; a board without COLOURS is a v2 board, refused as NO_ENGINE.
//! Built without, that logic is a constant's dead branch: the clue images'
//! netlists do not have it.
//!
//! Messages come at most one per 20 bit times, so each is decoded into
//! registered flags in one cycle and acted on in the next, and the second
//! block of a BLOCKS message is written the cycle after the first.

use crate::clue::clue_model::{MAX_BLOCKS_PER_LINE, MAX_SIDE};
use crate::clue::clue_store::CLUE_STORE_BITS;
use crate::colour::colour_protocol::COLOURS;
use crate::constant;
use crate::link::framer::MessageFramer;
use crate::link::protocol::{code, status};
use crate::link::session::BoardSession;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum LineState {
    /// Got the size (and, for a colour board, the inks: see `colours_due`):
    /// line 0's START_LINE must follow.
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
    /// With `clue_write`, the block's ink (v3; 0 in v2).
    pub clue_ink: Signal<Out, Bits<3>>,
    /// The board's inks (v3, valid from COLOURS on; 0 in v2).
    pub inks: Signal<Out, Bits<3>>,
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
    /// A colour board's size came, its COLOURS not yet (so that in a build
    /// without colour this is a constant 0, and its logic goes).
    colours_due: DFF<Bit>,
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
    clue_ink_q: DFF<Bits<3>>,
    inks_q: DFF<Bits<3>>,
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
    colours_now: Signal<Local, Bit>,
    /// A BLOCK's ink is 0 or past the board's inks (v3).
    bad_ink_now: Signal<Local, Bit>,
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
    /// Built for colour boards (protocol v3).
    colour: Constant<Bit>,
    max_inks: Constant<Bits<12>>,
    store_size: Constant<Bits<12>>,
    last_block: Constant<Bits<6>>,
    last_address: Constant<Bits<12>>,
    code_start_line: Constant<Bits<3>>,
    code_blocks: Constant<Bits<3>>,
    code_end_board: Constant<Bits<3>>,
    code_colours: Constant<Bits<3>>,
    malformed: Constant<Bits<3>>,
    over_capacity: Constant<Bits<3>>,
    unexpected: Constant<Bits<8>>,
    wrong_line: Constant<Bits<8>>,
    too_many_blocks: Constant<Bits<8>>,
    no_engine: Constant<Bits<8>>,
    bad_ink: Constant<Bits<8>>,
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

    /// A parser of colour boards (protocol v3) of up to `max_side` a side
    /// and `max_inks` inks, whose idle timeout is `idle_cycles` clock
    /// cycles, or the framer's at `clocks_per_bit` when None.
    pub fn with_colours(
        clocks_per_bit: u32,
        idle_cycles: Option<u64>,
        max_side: usize,
        max_inks: usize,
    ) -> ClueParser {
        let framer = match idle_cycles {
            Some(cycles) => MessageFramer::with_idle_cycles(cycles),
            None => MessageFramer::new(clocks_per_bit),
        };
        ClueParser {
            colour: Constant::new(true),
            max_inks: constant(max_inks as u64),
            ..ClueParser::with_framer(framer, max_side)
        }
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
            clue_ink: Default::default(),
            inks: Default::default(),
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
            colours_due: Default::default(),
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
            clue_ink_q: Default::default(),
            inks_q: Default::default(),
            line_write_q: Default::default(),
            budget_q: Default::default(),
            first_only_q: Default::default(),
            room: Default::default(),
            no_room: Default::default(),
            room_after: Default::default(),
            start_line_now: Default::default(),
            blocks_now: Default::default(),
            end_board_now: Default::default(),
            colours_now: Default::default(),
            bad_ink_now: Default::default(),
            next_line_now: Default::default(),
            line_after: Default::default(),
            line_is_last: Default::default(),
            last_line_now: Default::default(),
            refused_if_taken: Default::default(),
            refusal_outcome: Default::default(),
            refusal_detail: Default::default(),
            accepted: Default::default(),
            colour: Constant::new(false),
            max_inks: constant(0u64),
            store_size: constant(1u64 << CLUE_STORE_BITS),
            last_block: constant(MAX_BLOCKS_PER_LINE as u64 - 1),
            last_address: constant((1u64 << CLUE_STORE_BITS) - 1),
            code_start_line: constant(code::START_LINE),
            code_blocks: constant(code::ASSIGN),
            code_end_board: constant(code::END_BOARD),
            code_colours: constant(COLOURS),
            malformed: constant(status::outcome::MALFORMED),
            over_capacity: constant(status::outcome::OVER_CAPACITY),
            unexpected: constant(status::detail::UNEXPECTED),
            wrong_line: constant(status::detail::WRONG_LINE),
            too_many_blocks: constant(status::detail::TOO_MANY_BLOCKS),
            no_engine: constant(status::detail::NO_ENGINE),
            bad_ink: constant(status::detail::BAD_INK),
        }
    }
}

// What each message does: `parser/steps.rs`.
mod steps;

#[cfg(test)]
mod tests;
