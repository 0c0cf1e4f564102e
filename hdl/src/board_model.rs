//! The board's side of the protocol in plain Rust: bytes in, reply bytes
//! out, solving with [`crate::dnf::model`] (the DNF engine, protocol v1) or
//! [`crate::clue::clue_model`] (the clue engine, protocol v2). It is what the
//! gateware does, without the timing: the host's tests run it as a model
//! board behind a pseudo-terminal, and the tests below check it against the
//! simulated cores on every test stream, malformed ones included.

use crate::clue::clue_model::{self, ClueVerdict};
use crate::common::params::{FIFO_ADDR_BITS, FIFO_ENTRIES, MAX_LINE, MAX_LINES};
use crate::dnf::model::{check_capacity, solve, Verdict};
use crate::link::protocol::status::{detail, engines, field, outcome};
use crate::link::protocol::{code, image, Message, VERSION};

/// The board side of the host → board stream: a state machine that takes
/// bytes (and the line's silences and framing errors) and returns a reply
/// when one is due.
#[derive(Debug, Default)]
pub struct BoardModel {
    engine: Engine,
    half: Half,
    state: State,
    boot: Option<u8>,
}

/// Which engine the modelled board has (each bitstream has one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// Filters the options of protocol v1 (`core.rs`).
    #[default]
    Dnf,
    /// Solves from the clues of protocol v2 (`clue_core.rs`).
    Clues,
}

impl Engine {
    /// The flash image that runs it (image i runs engine bit 1 << i).
    pub fn image(self) -> u8 {
        match self {
            Engine::Dnf => image::DNF,
            Engine::Clues => image::CLUES,
        }
    }

    /// The engine flash image `image` runs (the cores boot only images the
    /// flash holds, so anything but the clue image is the DNF engine's).
    pub fn of_image(image: u8) -> Engine {
        if image == image::CLUES {
            Engine::Clues
        } else {
            Engine::Dnf
        }
    }

    /// Its name in flags and reports: "dnf" or "clues".
    pub fn name(self) -> &'static str {
        match self {
            Engine::Dnf => "dnf",
            Engine::Clues => "clues",
        }
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Half {
    #[default]
    None,
    Byte(u8),
    /// A first byte lost to a framing error: its message is dropped.
    Lost,
}

#[derive(Debug, Default)]
enum State {
    /// Waiting for START_BOARD (or QUERY); anything else is ignored.
    #[default]
    Idle,
    /// Got the first START_BOARD (rows).
    Rows(usize),
    /// Receiving lines.
    Board {
        rows: usize,
        columns: usize,
        lines: Vec<Vec<u64>>,
        /// The open line's current option, if a line is open.
        option: Option<u64>,
        stored: usize,
    },
    /// Receiving a board's clues (protocol v2); the last clue is the open line's.
    Clues {
        rows: usize,
        columns: usize,
        clues: Vec<Vec<usize>>,
        stored: usize,
    },
}

impl BoardModel {
    /// A board with `engine`.
    pub fn new(engine: Engine) -> BoardModel {
        BoardModel {
            engine,
            ..BoardModel::default()
        }
    }

    /// The flash image a SWITCH asked the board to reboot into, if any (the
    /// core then holds `SB_WARMBOOT`'s BOOT high).
    pub fn boot(&self) -> Option<u8> {
        self.boot
    }

    /// The line was idle for the idle timeout: a half message is dropped, a
    /// board being loaded is refused as TRUNCATED, a lone START_BOARD is
    /// forgotten (refused if half a message follows it).
    pub fn idle(&mut self) -> Option<Vec<u8>> {
        let half = std::mem::take(&mut self.half);
        match self.state {
            State::Rows(_) if half == Half::None => self.state = State::Idle,
            State::Rows(_) | State::Board { .. } | State::Clues { .. } => {
                return self.refuse(outcome::MALFORMED, detail::TRUNCATED);
            }
            State::Idle => {}
        }
        None
    }

    /// A byte was lost to a framing error: its message is dropped whole, and
    /// a board being loaded is refused as FRAMING.
    pub fn framing_error(&mut self) -> Option<Vec<u8>> {
        self.half = match self.half {
            Half::None => Half::Lost,
            _ => Half::None,
        };
        match self.state {
            State::Idle => None,
            _ => self.refuse(outcome::MALFORMED, detail::FRAMING),
        }
    }

    /// Takes one byte; returns a reply when the board answers.
    pub fn byte(&mut self, byte: u8) -> Option<Vec<u8>> {
        match std::mem::take(&mut self.half) {
            Half::None => {
                self.half = Half::Byte(byte);
                None
            }
            Half::Lost => None,
            Half::Byte(high) => self.message(Message::from_bytes([high, byte])),
        }
    }

    /// Takes bytes; returns the replies due.
    pub fn bytes(&mut self, bytes: &[u8]) -> Vec<u8> {
        bytes.iter().filter_map(|&b| self.byte(b)).flatten().collect()
    }

    fn refuse(&mut self, o: u8, d: u8) -> Option<Vec<u8>> {
        self.state = State::Idle;
        Some(match self.engine {
            Engine::Dnf => refusal(o, d),
            Engine::Clues => clue_refusal(o, d),
        })
    }

    /// Takes one message; returns a reply when the board answers.
    pub fn message(&mut self, m: Message) -> Option<Vec<u8>> {
        let index = m.index() as usize;
        match (m.code(), &mut self.state) {
            (code::START_BOARD, State::Rows(rows)) => {
                let (rows, columns) = (*rows, index);
                if m.value() != (self.engine == Engine::Clues) {
                    return self.refuse(outcome::OVER_CAPACITY, detail::NO_ENGINE);
                }
                if self.engine == Engine::Clues {
                    if rows == 0 || columns == 0 {
                        return self.refuse(outcome::MALFORMED, detail::BAD_SIZE);
                    }
                    if rows > clue_model::MAX_SIDE || columns > clue_model::MAX_SIDE {
                        return self.refuse(outcome::OVER_CAPACITY, detail::BAD_SIZE);
                    }
                    self.state = State::Clues {
                        rows,
                        columns,
                        clues: Vec::with_capacity(rows + columns),
                        stored: 0,
                    };
                    return None;
                }
                if let Err((o, d)) = check_capacity(rows, columns, 0) {
                    return self.refuse(o, d);
                }
                let lines = Vec::with_capacity(rows + columns);
                self.state = State::Board {
                    rows,
                    columns,
                    lines,
                    option: None,
                    stored: 0,
                };
                None
            }
            // The first of a pair abandons whatever was going on.
            (code::START_BOARD, _) => {
                self.state = State::Rows(index);
                None
            }
            (code::QUERY, _) => {
                self.state = State::Idle;
                Some(match self.engine {
                    Engine::Dnf => info_reply(),
                    Engine::Clues => clue_refusal(outcome::INFO, detail::NONE),
                })
            }
            // A reply here is instant, so the board is idle whenever it is
            // outside a board.
            (code::SWITCH, State::Idle) => {
                let image = m.index();
                if self.boot.is_none() && image < image::SLOTS as u16 && image::FLASH >> image & 1 == 1 {
                    self.boot = Some(image as u8);
                }
                None
            }
            (_, State::Idle) => None,
            (_, State::Rows(_)) => self.refuse(outcome::MALFORMED, detail::UNEXPECTED),
            (
                _,
                State::Clues {
                    rows,
                    columns,
                    clues,
                    stored,
                },
            ) => {
                let (rows, columns, total) = (*rows, *columns, *rows + *columns);
                match m.code() {
                    // 0 always means the next line.
                    code::START_LINE => {
                        if (index != clues.len() && index != 0) || clues.len() >= total {
                            return self.refuse(outcome::MALFORMED, detail::WRONG_LINE);
                        }
                        clues.push(Vec::new());
                    }
                    code::ASSIGN if !clues.is_empty() => {
                        for block in crate::clue::clue_protocol::blocks_of(m) {
                            let line = clues.last_mut().expect("open line");
                            if line.len() == clue_model::MAX_BLOCKS_PER_LINE
                                || *stored == clue_model::CLUE_STORE_BLOCKS
                            {
                                return self.refuse(outcome::OVER_CAPACITY, detail::TOO_MANY_BLOCKS);
                            }
                            line.push(block);
                            *stored += 1;
                        }
                    }
                    code::END_BOARD if !clues.is_empty() => {
                        if clues.len() != total {
                            return self.refuse(outcome::MALFORMED, detail::WRONG_LINE);
                        }
                        let columns_clues = clues.split_off(rows);
                        // END_BOARD's index is the search budget, its value
                        // bit first-solution mode.
                        let verdict = clue_model::search_in(clues, &columns_clues, index as u16, m.value());
                        debug_assert_eq!(verdict.columns, columns);
                        self.state = State::Idle;
                        return Some(clue_reply(&verdict));
                    }
                    code::END_BOARD => return self.refuse(outcome::MALFORMED, detail::WRONG_LINE),
                    _ => return self.refuse(outcome::MALFORMED, detail::UNEXPECTED),
                }
                None
            }
            (
                _,
                State::Board {
                    rows,
                    columns,
                    lines,
                    option,
                    stored,
                },
            ) => {
                let (rows, columns) = (*rows, *columns);
                let total = rows + columns;
                // The open line is the last one pushed.
                let length = if lines.len() <= rows { columns } else { rows };
                match (m.code(), option.is_some()) {
                    (code::START_LINE, false) => {
                        // 0 always means the next line.
                        if (index != lines.len() && index != 0) || lines.len() >= total {
                            return self.refuse(outcome::MALFORMED, detail::WRONG_LINE);
                        }
                        lines.push(Vec::new());
                        *option = Some(0);
                    }
                    (code::ASSIGN, true) => {
                        if index >= length {
                            return self.refuse(outcome::MALFORMED, detail::CELL_OUT_OF_LINE);
                        }
                        let o = option.as_mut().expect("open line");
                        *o = (*o & !(1 << index)) | (m.value() as u64) << index;
                    }
                    (code::NEXT_OPTION | code::END_LINE, true) => {
                        if *stored == FIFO_ENTRIES {
                            return self.refuse(outcome::OVER_CAPACITY, detail::FIFO_FULL);
                        }
                        *stored += 1;
                        lines.last_mut().expect("open line").push(option.unwrap_or(0));
                        *option = (m.code() == code::NEXT_OPTION).then_some(0);
                    }
                    (code::END_BOARD, false) => {
                        if lines.len() != total {
                            return self.refuse(outcome::MALFORMED, detail::WRONG_LINE);
                        }
                        let lines = std::mem::take(lines);
                        self.state = State::Idle;
                        return Some(encode_reply(&solve(rows, columns, &lines)));
                    }
                    _ => return self.refuse(outcome::MALFORMED, detail::UNEXPECTED),
                }
                None
            }
        }
    }
}

fn push(out: &mut Vec<u8>, m: Message) {
    out.extend_from_slice(&m.to_bytes());
}

/// Clock cycles the board reports: the reference model's count of the
/// gateware's cycles, saturating at 32 bits.
pub fn model_cycles(verdict: &Verdict) -> u32 {
    verdict.cycles.min(u32::MAX as u64) as u32
}

/// The reply frame for a solved, stalled or contradictory board, as the
/// gateware sends it: START_BOARD m, START_BOARD n, m·n ASSIGN/UNKNOWN
/// (index r·n + c), the STATUS fields 0..=12 in order, END_BOARD.
pub fn encode_reply(verdict: &Verdict) -> Vec<u8> {
    if verdict.cells.is_empty() {
        return refusal(verdict.outcome, verdict.detail);
    }
    let mut out = Vec::new();
    push(
        &mut out,
        Message::new(code::START_BOARD, verdict.rows as u16, false),
    );
    push(
        &mut out,
        Message::new(code::START_BOARD, verdict.columns as u16, false),
    );
    for (i, cell) in verdict.cells.iter().enumerate() {
        let m = match cell {
            Some(v) => Message::new(code::ASSIGN, i as u16, *v),
            None => Message::new(code::UNKNOWN, i as u16, false),
        };
        push(&mut out, m);
    }
    let (o, d, passes, options) = (
        verdict.outcome,
        verdict.detail,
        verdict.passes,
        verdict.options as u16,
    );
    status_fields(&mut out, o, d, model_cycles(verdict), passes, options);
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

fn status_fields(out: &mut Vec<u8>, o: u8, d: u8, cycles: u32, passes: u8, options: u16) {
    push(out, Message::status(field::OUTCOME, o));
    push(out, Message::status(field::DETAIL, d));
    for (i, b) in cycles.to_le_bytes().iter().enumerate() {
        push(out, Message::status(field::CYCLES_0 + i as u8, *b));
    }
    push(out, Message::status(field::PASSES, passes));
    for (i, b) in options.to_le_bytes().iter().enumerate() {
        push(out, Message::status(field::OPTIONS_0 + i as u8, *b));
    }
    push(out, Message::status(field::MAX_LINE, MAX_LINE as u8));
    push(out, Message::status(field::FIFO_ADDR_BITS, FIFO_ADDR_BITS as u8));
    push(out, Message::status(field::VERSION, VERSION));
    push(out, Message::status(field::MAX_LINES, MAX_LINES as u8));
}

/// A reply without cells (m = n = 0): the board was refused.
pub fn refusal(o: u8, d: u8) -> Vec<u8> {
    let mut out = Vec::new();
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    status_fields(&mut out, o, d, 0, 0, 0);
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

/// The INFO reply to a QUERY: the build parameters (m = n = 0, no cells),
/// and field 13, ENGINES: this image's engine and the flash's images.
pub fn info_reply() -> Vec<u8> {
    let mut out = Vec::new();
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    status_fields(&mut out, outcome::INFO, detail::NONE, 0, 0, 0);
    push(
        &mut out,
        Message::status(field::ENGINES, image::engines_field(engines::DNF, image::FLASH)),
    );
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

/// The STATUS fields of a v2 reply, 0..=14 in order, then the eight SEARCH
/// messages.
fn clue_status(o: u8, d: u8, cycles: u32, passes: u8, nodes: u32, backtracks: u32) -> Vec<Message> {
    let mut fields = vec![
        Message::status(field::OUTCOME, o),
        Message::status(field::DETAIL, d),
    ];
    for (i, b) in cycles.to_le_bytes().iter().enumerate() {
        fields.push(Message::status(field::CYCLES_0 + i as u8, *b));
    }
    fields.push(Message::status(field::PASSES, passes));
    let build = [
        (field::OPTIONS_0, 0),
        (field::OPTIONS_0 + 1, 0),
        (field::MAX_LINE, clue_model::MAX_SIDE as u8),
        (field::FIFO_ADDR_BITS, 0),
        (field::VERSION, crate::clue::reply::VERSION),
        (field::MAX_LINES, 2 * clue_model::MAX_SIDE as u8),
        (field::ENGINES, image::engines_field(engines::CLUES, image::FLASH)),
        (field::CLUE_STORE_BITS, crate::clue::solver::CLUE_STORE_BITS as u8),
    ];
    fields.extend(build.iter().map(|&(f, b)| Message::status(f, b)));
    for b in nodes.to_le_bytes().into_iter().chain(backtracks.to_le_bytes()) {
        fields.push(Message::status(field::SEARCH, b));
    }
    fields
}

/// The clue engine's reply for a verdict (protocol v2, packed cells).
pub fn clue_reply(verdict: &ClueVerdict) -> Vec<u8> {
    if verdict.cells.is_empty() {
        return clue_refusal(verdict.outcome, verdict.detail);
    }
    let clip = |x: u64| x.min(u32::MAX as u64) as u32;
    let status = clue_status(
        verdict.outcome,
        verdict.detail,
        clip(verdict.cycles),
        verdict.passes,
        clip(verdict.nodes),
        clip(verdict.backtracks),
    );
    let mut out = Vec::new();
    crate::clue::clue_protocol::encode_reply(
        verdict.rows,
        verdict.columns,
        &verdict.cells,
        &verdict.differs,
        &status,
        &mut out,
    );
    out
}

/// The clue engine's reply without cells: a refusal, or INFO.
pub fn clue_refusal(o: u8, d: u8) -> Vec<u8> {
    let mut out = Vec::new();
    crate::clue::clue_protocol::encode_reply(0, 0, &[], &[], &clue_status(o, d, 0, 0, 0, 0), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::v1_stream;
    use crate::bench::driver::{CoreDriver, SerialCore};
    use crate::link::protocol::{query_bytes, IDLE_TIMEOUT_BITS};

    const CPB: u32 = 4;

    /// A piece of a test stream; the line goes quiet after each.
    enum Piece {
        Bytes(Vec<u8>),
        /// The line idle past the idle timeout.
        Idle,
        /// A byte with a low stop bit.
        Lost(u8),
    }

    /// The original design's stream: START_LINE 0 for every line.
    fn original(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<u8> {
        let mut bytes = v1_stream(rows, columns, true);
        for at in (0..bytes.len()).step_by(2) {
            if Message::from_bytes([bytes[at], bytes[at + 1]]).code() == code::START_LINE {
                bytes[at..at + 2].copy_from_slice(&Message::new(code::START_LINE, 0, false).to_bytes());
            }
        }
        bytes
    }

    fn messages(list: &[(u8, u16, bool)]) -> Vec<u8> {
        list.iter()
            .flat_map(|&(c, i, v)| Message::new(c, i, v).to_bytes())
            .collect()
    }

    /// Runs the pieces through the board model and through the simulated
    /// core; both must send the same bytes.
    fn check(name: &str, pieces: &[Piece]) -> Vec<u8> {
        check_on::<crate::dnf::core::NonogramCore>(Engine::Dnf, name, pieces)
    }

    /// As [`check`], on the core of `engine` (`C`).
    fn check_on<C: SerialCore>(engine: Engine, name: &str, pieces: &[Piece]) -> Vec<u8> {
        let mut model = BoardModel::new(engine);
        let mut driver = CoreDriver::<C>::with_core(CPB);
        let (mut expected, mut got) = (vec![], vec![]);
        let quiet = |driver: &mut CoreDriver<C>| {
            while !driver.quiet() {
                driver.step();
            }
        };
        for piece in pieces {
            match piece {
                Piece::Bytes(bytes) => {
                    expected.extend(model.bytes(bytes));
                    driver.send(bytes);
                }
                Piece::Idle => {
                    expected.extend(model.idle().unwrap_or_default());
                    quiet(&mut driver);
                    for _ in 0..(IDLE_TIMEOUT_BITS * CPB + 10) {
                        driver.step();
                    }
                }
                Piece::Lost(byte) => {
                    expected.extend(model.framing_error().unwrap_or_default());
                    driver.send_with_framing_error(*byte);
                }
            }
            quiet(&mut driver);
            got.extend(driver.take_received());
        }
        assert_eq!(got, expected, "{name}: the core and the board model differ");
        got
    }

    fn heart() -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
        let columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
        (rows, columns)
    }

    #[test]
    fn answers_like_the_core_on_good_streams() {
        use Piece::*;
        let (rows, columns) = heart();
        let small = (
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        );
        let stalls = (vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
        let contradiction = (vec![vec![2], vec![]], vec![vec![1], vec![]]);
        for (name, (r, c)) in [
            ("heart", (rows, columns)),
            ("4x4", small),
            ("stalls", stalls),
            ("contradiction", contradiction),
        ] {
            check(
                name,
                &[
                    Bytes(v1_stream(&r, &c, false)),
                    Bytes(v1_stream(&r, &c, true)),
                    Bytes(original(&r, &c)),
                ],
            );
        }
        check("query", &[Bytes(query_bytes().to_vec())]);
    }

    #[test]
    fn answers_like_the_core_on_malformed_streams() {
        use Piece::*;
        let (rows, columns) = heart();
        let good = v1_stream(&rows, &columns, false);
        let one = v1_stream(&[vec![1]], &[vec![1]], false);
        let (sb, sl, a, no, el, eb) = (
            code::START_BOARD,
            code::START_LINE,
            code::ASSIGN,
            code::NEXT_OPTION,
            code::END_LINE,
            code::END_BOARD,
        );
        let cases: Vec<(&str, Vec<(u8, u16, bool)>)> = vec![
            ("zero rows", vec![(sb, 0, false), (sb, 3, false)]),
            ("a board of clues (v2)", vec![(sb, 3, true), (sb, 3, true)]),
            ("too many columns", vec![(sb, 3, false), (sb, 33, false)]),
            ("too many lines", vec![(sb, 32, false), (sb, 32, false)]),
            (
                "lone START_BOARD then a line",
                vec![(sb, 3, false), (sl, 0, false)],
            ),
            (
                "line out of order",
                vec![(sb, 2, false), (sb, 2, false), (sl, 1, false)],
            ),
            (
                "assign outside a line",
                vec![(sb, 2, false), (sb, 2, false), (a, 0, true)],
            ),
            (
                "cell past the line",
                vec![(sb, 2, false), (sb, 3, false), (sl, 0, false), (a, 3, true)],
            ),
            (
                "END_BOARD early",
                vec![
                    (sb, 1, false),
                    (sb, 1, false),
                    (sl, 0, false),
                    (el, 0, false),
                    (eb, 0, false),
                ],
            ),
            (
                "START_LINE 0 past the last line",
                vec![
                    (sb, 1, false),
                    (sb, 1, false),
                    (sl, 0, false),
                    (el, 0, false),
                    (sl, 0, false),
                    (el, 0, false),
                    (sl, 0, false),
                ],
            ),
            (
                "END_BOARD inside a line",
                vec![(sb, 1, false), (sb, 1, false), (sl, 0, false), (eb, 0, false)],
            ),
            (
                "code 100 inside a line",
                vec![
                    (sb, 1, false),
                    (sb, 1, false),
                    (sl, 0, false),
                    (code::STATUS, 0, false),
                ],
            ),
            (
                "NEXT_OPTION between lines",
                vec![(sb, 1, false), (sb, 1, false), (no, 0, false)],
            ),
            (
                "QUERY inside a board",
                vec![
                    (sb, 1, false),
                    (sb, 1, false),
                    (sl, 0, false),
                    (code::QUERY, 0, false),
                ],
            ),
            (
                "stray messages",
                vec![(a, 3, true), (eb, 0, false), (el, 0, false)],
            ),
        ];
        for (name, list) in cases {
            check(name, &[Bytes(messages(&list)), Idle, Bytes(one.clone())]);
        }
        // Restarts, silences and lost bytes, at a few places in a board.
        for at in [
            1,
            2,
            3,
            4,
            5,
            9,
            10,
            good.len() / 2,
            good.len() / 2 + 1,
            good.len() - 2,
            good.len() - 1,
        ] {
            check("restart", &[Bytes([&good[..at], &good[..]].concat())]);
            check("silence", &[Bytes(good[..at].to_vec()), Idle, Bytes(one.clone())]);
            check(
                "lost byte",
                &[
                    Bytes(good[..at].to_vec()),
                    Lost(good[at]),
                    Bytes(good[at + 1..].to_vec()),
                    Idle,
                    Bytes(one.clone()),
                ],
            );
        }
        check(
            "lone START_BOARD, half a message",
            &[Bytes(vec![0xe0, 0x06, 0x55]), Idle, Bytes(one.clone())],
        );
        check(
            "query after a board",
            &[Bytes(one.clone()), Bytes(query_bytes().to_vec()), Idle],
        );
    }

    /// The example in docs/protocol.md, byte for byte.
    /// SWITCH on both cores, against the model: ignored while a reply is
    /// being sent, refused inside a board, ignored for an image the flash
    /// does not hold or a bad index, obeyed when idle; INFO names the
    /// running engine and the flash's images.
    fn check_switch<C: SerialCore>(engine: Engine, board: Vec<u8>) {
        let switch = |image: u16| Message::new(code::SWITCH, image, false).to_bytes();
        let mut model = BoardModel::new(engine);
        let mut driver = CoreDriver::<C>::with_core(CPB);
        let run = |driver: &mut CoreDriver<C>, bytes: &[u8]| {
            driver.send(bytes);
            while !driver.quiet() {
                driver.step();
            }
            driver.take_received()
        };
        // INFO: field 13 says which engine runs and what the flash holds.
        let info = run(&mut driver, &query_bytes());
        assert_eq!(info, model.bytes(&query_bytes()), "{engine:?}: INFO");
        let reply = crate::clue::clue_protocol::decode_any_reply(&info).unwrap().0;
        let own = [engines::DNF, engines::CLUES][engine as usize];
        assert_eq!(reply.engines, image::engines_field(own, image::FLASH));
        // A SWITCH right behind END_BOARD lands during the solve; one sent
        // once the reply has begun lands while it goes out. Either way the
        // reply is whole, and nothing boots.
        let other = 1 - engine as u16;
        let expected = model.bytes(&board);
        let mut stream = board.clone();
        stream.extend(switch(other));
        assert_eq!(run(&mut driver, &stream), expected, "{engine:?}: the reply");
        assert_eq!(driver.boot(), None, "{engine:?}: SWITCH while solving");
        driver.send(&board);
        let mut got = vec![];
        while got.len() < 4 {
            driver.step();
            got.extend(driver.take_received());
        }
        got.extend(run(&mut driver, &switch(other)));
        assert_eq!(got, expected, "{engine:?}: the reply");
        assert_eq!(driver.boot(), None, "{engine:?}: SWITCH while replying");
        // Inside a board: refused, as code 100 always was.
        let mut inside = board[..4].to_vec();
        inside.extend(switch(other));
        assert_eq!(
            run(&mut driver, &inside),
            model.bytes(&inside),
            "{engine:?}: SWITCH in a board"
        );
        assert_eq!((driver.boot(), model.boot()), (None, None));
        // Images the flash does not hold, and indexes beyond its slots.
        for image in [2u16, 3, 4, 5, 4095] {
            assert!(run(&mut driver, &switch(image)).is_empty());
            assert!(model.bytes(&switch(image)).is_empty());
            assert_eq!((driver.boot(), model.boot()), (None, None), "image {image}");
        }
        // Idle: it boots, with no reply.
        assert!(run(&mut driver, &switch(other)).is_empty());
        assert!(model.bytes(&switch(other)).is_empty());
        assert_eq!(driver.boot(), Some(other as u8), "{engine:?}: SWITCH when idle");
        assert_eq!(model.boot(), driver.boot());
    }

    /// The clue core against the model on broken v2 streams: a byte lost
    /// to a framing error (FRAMING), a silence (TRUNCATED) and a restart at
    /// offsets through a board, each followed by a good board.
    #[test]
    fn the_clue_core_answers_broken_streams_like_the_model() {
        use Piece::*;
        let (rows, columns) = heart();
        let mut good = vec![];
        crate::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut good);
        let mut one = vec![];
        crate::clue::clue_protocol::encode_board(&[vec![1]], &[vec![1]], 0, &mut one);
        let mut framing = 0;
        for at in [0, 1, 2, 3, 5, good.len() / 2, good.len() - 2, good.len() - 1] {
            let clue = |name: &str, pieces: &[Piece]| {
                check_on::<crate::clue::core::ClueCore>(Engine::Clues, name, pieces)
            };
            let got = clue(
                "lost byte",
                &[
                    Bytes(good[..at].to_vec()),
                    Lost(good[at]),
                    Bytes(good[at + 1..].to_vec()),
                    Idle,
                    Bytes(one.clone()),
                ],
            );
            let reply = crate::clue::clue_protocol::decode_any_reply(&got).unwrap().0;
            framing += ((reply.outcome, reply.detail) == (outcome::MALFORMED, detail::FRAMING)) as usize;
            clue("silence", &[Bytes(good[..at].to_vec()), Idle, Bytes(one.clone())]);
            clue("restart", &[Bytes([&good[..at], &good[..]].concat())]);
        }
        assert!(framing >= 4, "{framing} FRAMING refusals");
    }

    /// The reset button pressed at instants through a reply (held for 40
    /// cycles): every byte on the wire is whole (no framing error, the byte
    /// in flight is finished), what went out is a prefix of the reply cut
    /// at a message boundary, and the next board gets the model's reply.
    fn check_reset_mid_reply<C: SerialCore>(engine: Engine, board: &[u8]) {
        let reply = BoardModel::new(engine).bytes(board);
        let mut cut_somewhere = 0;
        for press in (0..reply.len() as u64 * 10 * CPB as u64).step_by(89) {
            let mut driver = CoreDriver::<C>::with_core(CPB);
            driver.send(board);
            let mut got = vec![];
            // Up to the reply's first byte, then `press` cycles into it.
            while got.is_empty() {
                driver.step();
                got.extend(driver.take_received());
            }
            for _ in 0..press {
                driver.step();
            }
            driver.set_reset(true);
            for _ in 0..40 {
                driver.step();
            }
            driver.set_reset(false);
            while !driver.quiet() {
                driver.step();
            }
            got.extend(driver.take_received());
            let what = format!("{engine:?}, reset {press} cycles into the reply");
            assert_eq!(driver.framing_errors(), 0, "{what}: a torn byte");
            assert!(
                got.len() % 2 == 0 && reply.starts_with(&got),
                "{what}: {} of {} bytes",
                got.len(),
                reply.len()
            );
            cut_somewhere += (got.len() < reply.len()) as usize;
            // The board works after it.
            driver.send(board);
            while !driver.quiet() {
                driver.step();
            }
            assert_eq!(driver.take_received(), reply, "{what}: the next board");
        }
        assert!(cut_somewhere > 5, "{engine:?}: {cut_somewhere} replies cut");
    }

    #[test]
    fn a_reset_mid_reply_sends_no_torn_byte_on_either_core() {
        let (rows, columns) = (
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        );
        check_reset_mid_reply::<crate::dnf::core::NonogramCore>(
            Engine::Dnf,
            &v1_stream(&rows, &columns, false),
        );
        let mut clues = vec![];
        crate::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut clues);
        check_reset_mid_reply::<crate::clue::core::ClueCore>(Engine::Clues, &clues);
    }

    /// The SWITCH example in docs/protocol.md, byte for byte.
    #[test]
    fn the_documented_switch_example() {
        assert_eq!(Message::new(code::SWITCH, 1, false).to_bytes(), [0x80, 0x02]);
        let info = BoardModel::new(Engine::Clues).bytes(&query_bytes());
        assert!(info.windows(2).any(|w| w == [0x9A, 0x64]), "{info:02x?}");
        let info = BoardModel::new(Engine::Dnf).bytes(&query_bytes());
        let fields = crate::clue::clue_protocol::decode_any_reply(&info).unwrap().0;
        assert_eq!(fields.engines, 0x31);
    }

    #[test]
    fn both_cores_switch_images_only_when_idle_like_the_model() {
        let (rows, columns) = heart();
        check_switch::<crate::dnf::core::NonogramCore>(Engine::Dnf, v1_stream(&rows, &columns, false));
        let mut clues = vec![];
        crate::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut clues);
        check_switch::<crate::clue::core::ClueCore>(Engine::Clues, clues);
    }

    #[test]
    fn the_documented_example() {
        let hex = |s: &str| -> Vec<u8> {
            s.split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect()
        };
        let nonohost = hex("E0 02 E0 02 C0 00 A0 01 20 00 C0 02 A0 01 20 00 00 00");
        let original = hex("E0 02 E0 02 C0 00 A0 01 20 00 C0 00 A0 01 20 00 00 00");
        assert_eq!(v1_stream(&[vec![1]], &[vec![1]], false), nonohost);
        let reply = hex(
            "E0 02 E0 02 A0 01 80 00 82 00 84 24 86 00 88 00 8A 00 8C 02 8E 04 90 00 \
             92 40 94 16 96 02 98 80 00 00",
        );
        assert_eq!(BoardModel::default().bytes(&nonohost), reply);
        assert_eq!(BoardModel::default().bytes(&original), reply);
        assert_eq!(Message::status(field::CYCLES_0, 0xc8).to_bytes(), [0x85, 0x90]);
    }
}
