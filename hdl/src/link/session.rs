//! The board session: the front end both protocols share. It owns the
//! framer, and everything of docs/protocol.md that is not a board's body:
//!
//! * the START_BOARD pair: the first abandons whatever was going on (`abort`)
//!   and gives the rows, the second the columns and the protocol version
//!   (its value bit: 0 for a board of options, 1 for a board of clues);
//! * the size checks (BAD_SIZE, as MALFORMED or OVER_CAPACITY) and the
//!   version check (NO_ENGINE);
//! * QUERY (abandons any board), and SWITCH outside a board;
//! * the line's silences (TRUNCATED, and a lone START_BOARD forgotten) and
//!   lost bytes (FRAMING);
//! * the refusal itself: one registered pulse with its outcome and detail,
//!   after which the session waits for the next START_BOARD.
//!
//! A protocol adds a body parser behind [`BodyPort`]: from the second
//! START_BOARD on (`begin`) the session hands it every message it does not
//! take itself (`take`), and the body answers in the same cycle whether it
//! refuses the board or has it all (`finish`, on END_BOARD).
//!
//! Messages are decoded into registered flags in the cycle they arrive and
//! acted on in the next (`act`), so the logic below works on short paths; a
//! body decodes its own codes from `message` in the same cycle.

use crate::constant;
use crate::link::framer::MessageFramer;
use crate::link::protocol::{code, status};
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum SessionState {
    /// No board: only START_BOARD and QUERY mean anything.
    Idle,
    /// Got the rows; the columns' START_BOARD must follow.
    GotRows,
    /// A board of known size is open: its messages are the body's.
    Open,
    /// The board went to the solver: waiting for the next START_BOARD.
    Solving,
}

/// The session's side of a body parser.
#[derive(LogicInterface, Default)]
pub struct BodyPort {
    /// The framer's last message, and the pulse of its arrival (a body
    /// decodes its own flags then, to act on them with `take`).
    pub message: Signal<Out, Bits<16>>,
    pub message_valid: Signal<Out, Bit>,
    /// Pulse: the second START_BOARD, refused or not; `message`'s index is
    /// the columns. The body starts its first line.
    pub begin: Signal<Out, Bit>,
    /// Pulse: the message decoded last is the body's to act on.
    pub take: Signal<Out, Bit>,
    /// A board is open (from the second START_BOARD to its end).
    pub open: Signal<Out, Bit>,
    /// The board's size, as sent.
    pub rows: Signal<Out, Bits<12>>,
    pub columns: Signal<Out, Bits<12>>,
    /// The body waits for a message: low in the cycles it spends finishing
    /// one, when a silence or a lost byte does not end the board (v1's line
    /// count is written then).
    pub listening: Signal<In, Bit>,
    /// The body refuses the board, with this outcome and detail.
    pub refuse: Signal<In, Bit>,
    pub outcome: Signal<In, Bits<3>>,
    pub detail: Signal<In, Bits<8>>,
    /// With `take`: that was END_BOARD after the last line; solve the board.
    pub finish: Signal<In, Bit>,
}

#[derive(LogicBlock)]
pub struct BoardSession {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Bytes from the UART receiver.
    pub rx_byte: Signal<In, Bits<8>>,
    pub rx_byte_valid: Signal<In, Bit>,
    /// Pulse: the receiver dropped a byte (low stop bit).
    pub rx_framing_error: Signal<In, Bit>,
    /// The board's size (valid from the second START_BOARD on).
    pub rows: Signal<Out, Bits<12>>,
    pub columns: Signal<Out, Bits<12>>,
    /// Pulse: a new board or a query began; drop whatever was going on.
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
    pub body: BodyPort,
    framer: MessageFramer,
    /// The last message's code and index.
    message_code: Signal<Local, Bits<3>>,
    message_index: Signal<Local, Bits<12>>,
    state: DFF<SessionState>,
    // The decoded message (valid while `act`).
    act: DFF<Bit>,
    is_start_board: DFF<Bit>,
    is_query: DFF<Bit>,
    is_switch: DFF<Bit>,
    /// The second START_BOARD's checks (the other protocol's board, a size
    /// of 0, a size over the build's), decided as the message arrives into
    /// whether the pair is refused and how: chosen at `act`, through the
    /// state and the flags, they were a critical path of the probing image.
    size_zero: Signal<Local, Bit>,
    size_too_big: Signal<Local, Bit>,
    other_version: Signal<Local, Bit>,
    pair_refused: DFF<Bit>,
    pair_outcome: DFF<Bits<3>>,
    pair_detail: DFF<Bits<8>>,
    rows_q: DFF<Bits<12>>,
    columns_q: DFF<Bits<12>>,
    // Registered outputs.
    abort_q: DFF<Bit>,
    solve_q: DFF<Bit>,
    refuse_q: DFF<Bit>,
    query_q: DFF<Bit>,
    switch_q: DFF<Bit>,
    outcome_q: DFF<Bits<3>>,
    detail_q: DFF<Bits<8>>,
    /// The value bit of the second START_BOARD this build takes.
    clues: Constant<Bit>,
    max_side: Constant<Bits<12>>,
    /// Whether rows and columns together have a limit below twice
    /// `max_side` (v1's line table); without one the adder is left out.
    limit_lines: Constant<Bit>,
    max_lines: Constant<Bits<13>>,
    code_start_board: Constant<Bits<3>>,
    code_query: Constant<Bits<3>>,
    code_switch: Constant<Bits<3>>,
    malformed: Constant<Bits<3>>,
    over_capacity: Constant<Bits<3>>,
    bad_size: Constant<Bits<8>>,
    unexpected: Constant<Bits<8>>,
    truncated: Constant<Bits<8>>,
    framing: Constant<Bits<8>>,
    no_engine: Constant<Bits<8>>,
}

impl BoardSession {
    /// A session behind `framer` for boards of options (`clues` false,
    /// protocol v1) or of clues (v2), at most `max_side` a side and, if
    /// given, `max_lines` rows and columns together.
    pub fn new(framer: MessageFramer, clues: bool, max_side: u64, max_lines: Option<u64>) -> BoardSession {
        BoardSession {
            clock: Default::default(),
            reset: Default::default(),
            rx_byte: Default::default(),
            rx_byte_valid: Default::default(),
            rx_framing_error: Default::default(),
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
            body: Default::default(),
            framer,
            message_code: Default::default(),
            message_index: Default::default(),
            state: Default::default(),
            act: Default::default(),
            is_start_board: Default::default(),
            is_query: Default::default(),
            is_switch: Default::default(),
            size_zero: Default::default(),
            size_too_big: Default::default(),
            other_version: Default::default(),
            pair_refused: Default::default(),
            pair_outcome: Default::default(),
            pair_detail: Default::default(),
            rows_q: Default::default(),
            columns_q: Default::default(),
            abort_q: Default::default(),
            solve_q: Default::default(),
            refuse_q: Default::default(),
            query_q: Default::default(),
            switch_q: Default::default(),
            outcome_q: Default::default(),
            detail_q: Default::default(),
            clues: Constant::new(clues),
            max_side: constant(max_side),
            limit_lines: Constant::new(max_lines.is_some()),
            max_lines: constant(max_lines.unwrap_or(0)),
            code_start_board: constant(code::START_BOARD),
            code_query: constant(code::QUERY),
            code_switch: constant(code::SWITCH),
            malformed: constant(status::outcome::MALFORMED),
            over_capacity: constant(status::outcome::OVER_CAPACITY),
            bad_size: constant(status::detail::BAD_SIZE),
            unexpected: constant(status::detail::UNEXPECTED),
            truncated: constant(status::detail::TRUNCATED),
            framing: constant(status::detail::FRAMING),
            no_engine: constant(status::detail::NO_ENGINE),
        }
    }
}

impl Logic for BoardSession {
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
            pair_refused,
            pair_outcome,
            pair_detail,
            rows_q,
            columns_q,
            abort_q,
            solve_q,
            refuse_q,
            query_q,
            switch_q,
            outcome_q,
            detail_q
        );
        self.message_code.next = self.framer.message.val().get_bits::<3>(13);
        self.message_index.next = self.framer.message.val().get_bits::<12>(1);
        self.rows.next = self.rows_q.q.val();
        self.columns.next = self.columns_q.q.val();
        self.abort.next = self.abort_q.q.val();
        self.board_loaded.next = self.solve_q.q.val();
        self.refuse.next = self.refuse_q.q.val();
        self.refuse_outcome.next = self.outcome_q.q.val();
        self.refuse_detail.next = self.detail_q.q.val();
        self.query.next = self.query_q.q.val();
        self.switch.next = self.switch_q.q.val();
        self.switch_image.next = self.message_index.val();
        self.loading.next = (self.state.q.val() == SessionState::GotRows)
            | ((self.state.q.val() == SessionState::Open) & self.body.listening.val());
        self.body.message.next = self.framer.message.val();
        self.body.message_valid.next = self.framer.message_valid.val();
        self.body.open.next = self.state.q.val() == SessionState::Open;
        self.body.rows.next = self.rows_q.q.val();
        self.body.columns.next = self.columns_q.q.val();
        self.body.begin.next = false;
        self.body.take.next = false;
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
            // A lone START_BOARD is forgotten; a board cut short, or a
            // START_BOARD with half a message after it, is refused.
            if self.state.q.val() == SessionState::GotRows {
                self.state.d.next = SessionState::Idle;
            }
            if (self.framer.half.val() & self.loading.val())
                | ((self.state.q.val() == SessionState::Open) & self.body.listening.val())
            {
                self.refuse_q.d.next = true;
                self.outcome_q.d.next = self.malformed.val();
                self.detail_q.d.next = self.truncated.val();
                self.state.d.next = SessionState::Idle;
            }
        }

        // Decode a complete message into registered flags.
        self.other_version.next = self.framer.message.val().get_bit(0) != self.clues.val();
        self.size_zero.next = (self.rows_q.q.val() == 0) | (self.message_index.val() == 0);
        self.size_too_big.next = (self.rows_q.q.val() > self.max_side.val())
            | (self.message_index.val() > self.max_side.val())
            | (self.limit_lines.val()
                & ((bit_cast::<13, 12>(self.rows_q.q.val()) + bit_cast::<13, 12>(self.message_index.val()))
                    > self.max_lines.val()));
        self.act.d.next = self.framer.message_valid.val();
        if self.framer.message_valid.val() {
            self.is_start_board.d.next = self.message_code.val() == self.code_start_board.val();
            self.is_query.d.next = self.message_code.val() == self.code_query.val();
            self.is_switch.d.next = self.message_code.val() == self.code_switch.val();
            // For a second START_BOARD: the rows are in, the columns are
            // this message's index.
            self.pair_refused.d.next =
                self.other_version.val() | self.size_zero.val() | self.size_too_big.val();
            self.pair_outcome.d.next = self.over_capacity.val();
            self.pair_detail.d.next = self.bad_size.val();
            if self.size_zero.val() {
                self.pair_outcome.d.next = self.malformed.val();
            }
            if self.other_version.val() {
                // A board of the other protocol: this build has not its engine.
                self.pair_outcome.d.next = self.over_capacity.val();
                self.pair_detail.d.next = self.no_engine.val();
            }
        }

        // Act on it.
        if self.act.q.val() {
            if self.is_start_board.q.val() {
                if self.state.q.val() == SessionState::GotRows {
                    self.columns_q.d.next = self.message_index.val();
                    self.body.begin.next = true;
                    self.state.d.next = SessionState::Open;
                    if self.pair_refused.q.val() {
                        self.refuse_q.d.next = true;
                        self.outcome_q.d.next = self.pair_outcome.q.val();
                        self.detail_q.d.next = self.pair_detail.q.val();
                        self.state.d.next = SessionState::Idle;
                    }
                } else {
                    // The first of a pair: a new board, whatever was going on.
                    self.abort_q.d.next = true;
                    self.rows_q.d.next = self.message_index.val();
                    self.state.d.next = SessionState::GotRows;
                }
            } else if self.is_query.q.val() {
                self.abort_q.d.next = true;
                self.query_q.d.next = true;
                self.state.d.next = SessionState::Idle;
            } else if self.is_switch.q.val()
                & ((self.state.q.val() == SessionState::Idle) | (self.state.q.val() == SessionState::Solving))
            {
                // Outside a board: the core reboots if it is idle.
                self.switch_q.d.next = true;
            } else if self.state.q.val() == SessionState::GotRows {
                self.refuse_q.d.next = true;
                self.outcome_q.d.next = self.malformed.val();
                self.detail_q.d.next = self.unexpected.val();
                self.state.d.next = SessionState::Idle;
            } else if self.state.q.val() == SessionState::Open {
                // The board's own messages, SWITCH included (refused there).
                self.body.take.next = true;
                if self.body.finish.val() {
                    self.solve_q.d.next = true;
                    self.state.d.next = SessionState::Solving;
                }
            }
        }
        // The body's refusal: of a message it takes, or later (v2 checks the
        // second block of a BLOCKS message in the next cycle).
        if self.body.refuse.val() {
            self.refuse_q.d.next = true;
            self.outcome_q.d.next = self.body.outcome.val();
            self.detail_q.d.next = self.body.detail.val();
            self.state.d.next = SessionState::Idle;
        }
        // A lost byte still took its place in the stream (the framer drops
        // its message whole), and the board it was part of is refused.
        if self.rx_framing_error.val() & self.loading.val() {
            self.refuse_q.d.next = true;
            self.outcome_q.d.next = self.malformed.val();
            self.detail_q.d.next = self.framing.val();
            self.state.d.next = SessionState::Idle;
        }
        if self.reset.val() {
            self.state.d.next = SessionState::Idle;
            self.abort_q.d.next = true;
        }
    }
}
