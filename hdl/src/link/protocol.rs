//! Wire protocol v1: the one definition shared by the gateware, its
//! testbenches, the simulated board and `nonohost`.
//!
//! `docs/protocol.md` is the prose version of this file; keep them together.
//!
//! A message is 16 bits, sent high byte first: bits 15..13 code,
//! bits 12..1 index, bit 0 value.

/// Message codes (bits 15..13).
pub mod code {
    /// Host → board, as a pair (rows, then columns). Board → host: the same pair opens a reply.
    pub const START_BOARD: u8 = 0b111;
    /// Host → board: begins line `index` (rows 0..m−1, then columns as m..m+n−1).
    pub const START_LINE: u8 = 0b110;
    /// Host → board: in the current option, cell `index` takes `value`.
    /// Board → host: cell `index` (= r·n + c) is fixed to `value`.
    pub const ASSIGN: u8 = 0b101;
    /// Board → host: cell `index` could not be fixed.
    pub const UNKNOWN: u8 = 0b011;
    /// Host → board: asks for the build parameters (answered with an INFO reply).
    pub const QUERY: u8 = 0b011;
    /// Board → host: one field of the outcome (see [`status`]).
    pub const STATUS: u8 = 0b100;
    /// Host → board (v1 and v2 alike), outside a board: reboot into flash
    /// image `index` (see [`super::image`]). The board obeys only when it is
    /// idle (not loading, solving or replying) and the flash holds that
    /// image; otherwise it ignores the message. Inside a board it is
    /// refused as UNEXPECTED, as code `100` always was.
    pub const SWITCH: u8 = 0b100;
    /// Host → board: closes the current option; the next begins.
    pub const NEXT_OPTION: u8 = 0b010;
    /// Board → host (v2, SEVERAL): 13 cells in which a second solution differs.
    pub const DIFFERS: u8 = 0b010;
    /// Host → board: closes the line's last option.
    pub const END_LINE: u8 = 0b001;
    /// Host → board: all lines sent, solving starts. Board → host: closes a reply.
    pub const END_BOARD: u8 = 0b000;
}

/// STATUS messages: message bits 12..9 (index bits 11..8) name a field,
/// message bits 8..1 carry one byte of it (so the byte straddles the two wire
/// bytes), bit 0 is always 0.
pub mod status {
    /// Field ids (bits 12..9 of a STATUS message).
    pub mod field {
        /// The outcome, one of [`super::outcome`].
        pub const OUTCOME: u8 = 0;
        /// Why a board was refused, one of [`super::detail`]; for a
        /// contradiction, the line that lost all its options.
        pub const DETAIL: u8 = 1;
        /// Clock cycles from END_BOARD to the verdict, 32 bits, little end first (fields 2..=5).
        pub const CYCLES_0: u8 = 2;
        /// Full passes over every line, saturating at 255.
        pub const PASSES: u8 = 6;
        /// Options stored for this board, 16 bits, low byte first (fields 7 and 8).
        pub const OPTIONS_0: u8 = 7;
        /// Longest line the build takes (cells): an INFO reply field.
        pub const MAX_LINE: u8 = 9;
        /// log2 of the option FIFO's entries: an INFO reply field.
        pub const FIFO_ADDR_BITS: u8 = 10;
        /// Protocol version (1): an INFO reply field.
        pub const VERSION: u8 = 11;
        /// Most lines (rows + columns) the build takes: an INFO reply field.
        pub const MAX_LINES: u8 = 12;
        /// The engine this image runs and the images the flash holds: bits
        /// 0..=3 the running image's [`super::engines`] bit, bits 4..=7 one
        /// bit per flash image (bit 4 + i: image i, which runs engine bit i;
        /// see [`crate::link::protocol::image`]). In every v2 reply, and in
        /// v1 INFO replies only (v1 board replies stay as they were).
        pub const ENGINES: u8 = 13;
        /// log2 of the blocks the clue store holds (v2 replies only).
        pub const CLUE_STORE_BITS: u8 = 14;
        /// Search statistics (v2 board replies): eight SEARCH messages, in
        /// order the search nodes (guesses) and the backtracks, each 32 bits
        /// low byte first.
        pub const SEARCH: u8 = 15;
    }

    /// Values of the OUTCOME field.
    pub mod outcome {
        /// Every cell is fixed.
        pub const SOLVED: u8 = 0;
        /// A line lost all its options: the clues have no solution.
        pub const CONTRADICTION: u8 = 1;
        /// A whole pass fixed nothing new; the unfixed cells are sent as UNKNOWN.
        pub const STALLED: u8 = 2;
        /// The board does not fit this build (dimensions or FIFO entries).
        pub const OVER_CAPACITY: u8 = 3;
        /// The message stream broke the protocol; see DETAIL.
        pub const MALFORMED: u8 = 4;
        /// Answer to a QUERY: the INFO fields follow.
        pub const INFO: u8 = 5;
        /// v2 with search: a solution, and a second one that differs in the
        /// cells of the DIFFERS map.
        pub const SEVERAL: u8 = 6;
        /// v2 with search: the search budget ran out; the cells are line
        /// logic's, before the first guess.
        pub const GAVE_UP: u8 = 7;
    }

    /// Bits of the ENGINES field.
    pub mod engines {
        /// Filters stored options (protocol v1).
        pub const DNF: u8 = 1;
        /// Solves lines from their clues (protocol v2).
        pub const CLUES: u8 = 2;
        /// The clue engine with probing, boards up to 32×32 (protocol v2).
        pub const PROBING: u8 = 3;
        /// The colour clue engine (protocol v3).
        pub const COLOUR: u8 = 4;
    }

    /// Values of the DETAIL field for OVER_CAPACITY and MALFORMED.
    pub mod detail {
        /// Nothing to add.
        pub const NONE: u8 = 0;
        /// Rows or columns are zero or over MAX_LINE, or rows + columns over MAX_LINES.
        pub const BAD_SIZE: u8 = 1;
        /// A message arrived where the protocol does not allow it.
        pub const UNEXPECTED: u8 = 2;
        /// An ASSIGN index is outside the current line.
        pub const CELL_OUT_OF_LINE: u8 = 3;
        /// START_LINE named a line other than the next one (0 always means the
        /// next one), or END_BOARD came early.
        pub const WRONG_LINE: u8 = 4;
        /// The option FIFO is full.
        pub const FIFO_FULL: u8 = 5;
        /// The line went idle while a board was loading (inside a message or between two).
        pub const TRUNCATED: u8 = 6;
        /// A byte arrived with a framing error (low stop bit) while a board was loading.
        pub const FRAMING: u8 = 7;
        /// The board came in a protocol version this build has no engine
        /// for: clues (v2) to a build with only the DNF engine, or options
        /// (v1) to a build with only the clue engine.
        pub const NO_ENGINE: u8 = 8;
        /// A line has more blocks than the clue engine takes (32), or the
        /// board's blocks overflow its clue store.
        pub const TOO_MANY_BLOCKS: u8 = 9;
        /// v3: COLOURS asked for no inks (MALFORMED) or more than the
        /// build takes (OVER_CAPACITY), or a block's ink is 0 or past the
        /// board's inks (MALFORMED).
        pub const BAD_INK: u8 = 10;
    }
}

/// Flash images: image `i` runs the engine whose [`status::engines`] bit is
/// `1 << i`. The iCE40 powers up into image 0 and reboots into another
/// (`SB_WARMBOOT`) on a SWITCH.
pub mod image {
    /// The DNF engine, protocol v1: the power-up image.
    pub const DNF: u8 = 0;
    /// The clue engine, protocol v2.
    pub const CLUES: u8 = 1;
    /// The clue engine with probing, up to 32×32, protocol v2.
    pub const PROBING: u8 = 2;
    /// The colour clue engine, up to 32×32, protocol v3 (modelled; its
    /// gateware is not built yet, so the flash does not hold it).
    pub const COLOUR: u8 = 3;
    /// How many images an iCE40's flash can hold.
    pub const SLOTS: u8 = 4;
    /// The images `nonogram-bsp build` packs into the flash, one bit each.
    pub const FLASH: u8 = 1 << DNF | 1 << CLUES | 1 << PROBING;
    // icemulti packs them in order: they must fill the slots from 0.
    const _: () = assert!(FLASH & (FLASH + 1) == 0 && FLASH >> SLOTS == 0);

    /// The ENGINES field of an image running `engine` (one of
    /// [`super::status::engines`]) in a flash holding the `images` set.
    pub const fn engines_field(engine: u8, images: u8) -> u8 {
        engine | images << 4
    }
}

/// Protocol version sent in INFO replies.
pub const VERSION: u8 = 1;

/// Line idle time, in bit periods, after which the board drops a half
/// message, refuses a board being loaded (TRUNCATED) and forgets a lone
/// START_BOARD (8 byte times).
pub const IDLE_TIMEOUT_BITS: u32 = 80;

/// A decoded 16-bit message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Message(pub u16);

impl Message {
    /// Builds a message; `index` must fit 12 bits.
    pub const fn new(code: u8, index: u16, value: bool) -> Message {
        Message(((code as u16 & 0b111) << 13) | ((index & 0x0fff) << 1) | value as u16)
    }
    pub const fn code(self) -> u8 {
        (self.0 >> 13) as u8
    }
    pub const fn index(self) -> u16 {
        (self.0 >> 1) & 0x0fff
    }
    pub const fn value(self) -> bool {
        self.0 & 1 == 1
    }
    /// The two bytes on the wire, high byte first.
    pub const fn to_bytes(self) -> [u8; 2] {
        self.0.to_be_bytes()
    }
    pub const fn from_bytes(bytes: [u8; 2]) -> Message {
        Message(u16::from_be_bytes(bytes))
    }
    /// A STATUS message carrying `byte` of field `field`.
    pub const fn status(field: u8, byte: u8) -> Message {
        Message::new(code::STATUS, ((field as u16 & 0xf) << 8) | byte as u16, false)
    }
    /// For a STATUS message: (field, byte).
    pub const fn status_parts(self) -> (u8, u8) {
        let index = self.index();
        ((index >> 8) as u8, index as u8)
    }
}

/// Appends the host → board stream of one board to `out`: the START_BOARD
/// pair, then every line's options (only filled cells unless `every_cell`),
/// then END_BOARD. `lines` gives rows top to bottom, then columns left to
/// right; each option is a bit mask with bit i = cell i.
pub fn encode_board<'a, L, O>(rows: usize, columns: usize, lines: L, every_cell: bool, out: &mut Vec<u8>)
where
    L: IntoIterator<Item = O>,
    O: IntoIterator<Item = u64>,
{
    let mut push = |m: Message| out.extend_from_slice(&m.to_bytes());
    push(Message::new(code::START_BOARD, rows as u16, false));
    push(Message::new(code::START_BOARD, columns as u16, false));
    for (line, options) in lines.into_iter().enumerate() {
        let length = if line < rows { columns } else { rows };
        push(Message::new(code::START_LINE, line as u16, false));
        let mut first = true;
        for option in options {
            if !first {
                push(Message::new(code::NEXT_OPTION, 0, false));
            }
            first = false;
            for cell in 0..length {
                let value = option >> cell & 1 == 1;
                if value || every_cell {
                    push(Message::new(code::ASSIGN, cell as u16, value));
                }
            }
        }
        push(Message::new(code::END_LINE, 0, false));
    }
    push(Message::new(code::END_BOARD, 0, false));
}

/// What the board's reply says about a board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub rows: usize,
    pub columns: usize,
    /// Row-major cells: `Some(value)` if fixed, `None` if UNKNOWN. Empty for
    /// replies without a board (errors, INFO).
    pub cells: Vec<Option<bool>>,
    pub outcome: u8,
    pub detail: u8,
    pub cycles: u32,
    pub passes: u8,
    pub options: u16,
    /// INFO fields (zero when absent).
    pub max_line: u8,
    pub fifo_addr_bits: u8,
    pub version: u8,
    pub max_lines: u8,
    /// v2 INFO fields (zero when absent).
    pub engines: u8,
    pub clue_store_bits: u8,
    /// v2 with search: for SEVERAL, the cells in which a second solution
    /// differs from `cells` (empty otherwise).
    pub differs: Vec<bool>,
    /// v2 search statistics: guesses made and times the search went back.
    pub nodes: u32,
    pub backtracks: u32,
    /// SEARCH messages decoded so far (they are positional).
    pub search_messages: u8,
}

/// Why a byte stream is not a well-formed reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyError {
    /// The stream ended before END_BOARD.
    Incomplete,
    /// A message broke the reply frame; `at` is its byte offset.
    Unexpected { at: usize, message: Message },
    /// The cell count differs from rows × columns.
    CellCount { expected: usize, got: usize },
}

impl std::fmt::Display for ReplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplyError::Incomplete => write!(f, "the reply ended before END_BOARD"),
            ReplyError::Unexpected { at, message } => write!(
                f,
                "unexpected message {:#06x} (code {:03b}) at byte {at} of the reply",
                message.0,
                message.code()
            ),
            ReplyError::CellCount { expected, got } => {
                write!(f, "the reply has {got} cells, expected {expected}")
            }
        }
    }
}

impl std::error::Error for ReplyError {}

/// Decodes one reply from the start of `bytes`. Returns the reply and the
/// number of bytes it took.
pub fn decode_reply(bytes: &[u8]) -> Result<(Reply, usize), ReplyError> {
    let mut reply = Reply::default();
    let mut messages = bytes
        .chunks_exact(2)
        .enumerate()
        .map(|(i, b)| (2 * i, Message::from_bytes([b[0], b[1]])));
    let mut next = || messages.next().ok_or(ReplyError::Incomplete);
    for dimension in [&mut reply.rows, &mut reply.columns] {
        let (at, message) = next()?;
        if message.code() != code::START_BOARD {
            return Err(ReplyError::Unexpected { at, message });
        }
        *dimension = message.index() as usize;
    }
    loop {
        let (at, message) = next()?;
        match message.code() {
            code::ASSIGN | code::UNKNOWN => {
                let expected = reply.cells.len();
                if message.index() as usize != expected || expected >= reply.rows * reply.columns {
                    return Err(ReplyError::Unexpected { at, message });
                }
                let known = message.code() == code::ASSIGN;
                reply.cells.push(known.then_some(message.value()));
            }
            code::STATUS => decode_status(&mut reply, message),
            code::END_BOARD => {
                let expected = reply.rows * reply.columns;
                if !reply.cells.is_empty() && reply.cells.len() != expected {
                    return Err(ReplyError::CellCount {
                        expected,
                        got: reply.cells.len(),
                    });
                }
                return Ok((reply, at + 2));
            }
            _ => return Err(ReplyError::Unexpected { at, message }),
        }
    }
}

/// Folds one STATUS message into `reply` (both protocol versions); fields
/// from a later version are skipped.
pub fn decode_status(reply: &mut Reply, message: Message) {
    use status::field;
    let (id, byte) = message.status_parts();
    match id {
        field::OUTCOME => reply.outcome = byte,
        field::DETAIL => reply.detail = byte,
        f if (field::CYCLES_0..field::CYCLES_0 + 4).contains(&f) => {
            reply.cycles |= (byte as u32) << (8 * (f - field::CYCLES_0))
        }
        field::PASSES => reply.passes = byte,
        f if (field::OPTIONS_0..field::OPTIONS_0 + 2).contains(&f) => {
            reply.options |= (byte as u16) << (8 * (f - field::OPTIONS_0))
        }
        field::MAX_LINE => reply.max_line = byte,
        field::FIFO_ADDR_BITS => reply.fifo_addr_bits = byte,
        field::VERSION => reply.version = byte,
        field::MAX_LINES => reply.max_lines = byte,
        field::ENGINES => reply.engines = byte,
        field::CLUE_STORE_BITS => reply.clue_store_bits = byte,
        field::SEARCH => {
            let k = reply.search_messages as u32;
            match k {
                0..=3 => reply.nodes |= (byte as u32) << (8 * k),
                4..=7 => reply.backtracks |= (byte as u32) << (8 * (k - 4)),
                _ => {}
            }
            reply.search_messages = reply.search_messages.saturating_add(1);
        }
        _ => {}
    }
}

/// The bytes of a QUERY (asks the board for its build parameters).
pub fn query_bytes() -> [u8; 2] {
    Message::new(code::QUERY, 0, false).to_bytes()
}
