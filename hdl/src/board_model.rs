//! The board's side of the protocol in plain Rust: bytes in, reply bytes
//! out, solving with [`crate::dnf::model`] (the DNF engine, protocol v1),
//! [`crate::clue::clue_model`] (the clue engines, protocol v2) or
//! [`crate::colour::model`] (the colour engine, protocol v3). It is what the
//! gateware does, without the timing: the host's tests run it as a model
//! board behind a pseudo-terminal, and the tests below check it against the
//! simulated cores on every test stream, malformed ones included.

use crate::clue::clue_model;
use crate::colour::colour_protocol::{block_of, COLOURS};
use crate::colour::line_logic::Block;
use crate::common::params::FIFO_ENTRIES;
use crate::dnf::model::{check_capacity, solve};
use crate::link::protocol::status::{detail, engines, outcome};
use crate::link::protocol::{code, image, Message};

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
    /// Solves from the clues of protocol v2, up to 64×64 (`clue/core.rs`).
    Clues,
    /// The clue engine with probing, up to 32×32 (`clue/core.rs`,
    /// `ProbingCore`).
    Probing,
    /// Solves colour boards from the clues of protocol v3, up to 32×32 and
    /// 4 inks (`colour/`: modelled; its gateware is not built yet, so no
    /// flash holds it).
    Colour,
}

impl Engine {
    /// Every engine, in image order.
    pub const ALL: [Engine; 4] = [Engine::Dnf, Engine::Clues, Engine::Probing, Engine::Colour];

    /// The flash image that runs it (image i runs engine bit 1 << i).
    pub fn image(self) -> u8 {
        match self {
            Engine::Dnf => image::DNF,
            Engine::Clues => image::CLUES,
            Engine::Probing => image::PROBING,
            Engine::Colour => image::COLOUR,
        }
    }

    /// Whether the build's flash holds its image.
    pub fn in_flash(self) -> bool {
        image::FLASH >> self.image() & 1 == 1
    }

    /// The engine flash image `image` runs (the cores boot only images the
    /// flash holds, so anything but the clue image is the DNF engine's).
    pub fn of_image(image: u8) -> Engine {
        match image {
            image::CLUES => Engine::Clues,
            image::PROBING => Engine::Probing,
            image::COLOUR => Engine::Colour,
            _ => Engine::Dnf,
        }
    }

    /// yosys `synth_ice40`'s options for its bitstream, and for the netlist
    /// the Verilator check runs. The clue engine's logic is mapped with
    /// abc9: measured on one netlist, 102.5 MHz at the default placement
    /// and 107.6-112.2 over seeds 1-5, against 100.2 and 102.1-108.7
    /// (137 logic cells more). The DNF engine lost about 5 MHz with it.
    pub fn synth_options(self) -> &'static str {
        match self {
            Engine::Dnf => "",
            Engine::Clues | Engine::Probing | Engine::Colour => "-abc9",
        }
    }

    /// Its code in the ENGINES field (`status::engines`).
    pub fn code(self) -> u8 {
        match self {
            Engine::Dnf => engines::DNF,
            Engine::Clues => engines::CLUES,
            Engine::Probing => engines::PROBING,
            Engine::Colour => engines::COLOUR,
        }
    }

    /// Whether it takes clues (protocol v2, or v3 for colour): its
    /// START_BOARDs and replies have value bit 1.
    pub fn takes_clues(self) -> bool {
        self != Engine::Dnf
    }

    /// The largest side of a board a clue engine takes (its INFO's
    /// MAX_LINE); the DNF engine's lines are MAX_LINE long.
    pub fn clue_side(self) -> usize {
        match self {
            Engine::Dnf => crate::common::params::MAX_LINE,
            Engine::Clues => clue_model::MAX_SIDE,
            Engine::Probing => crate::clue::core::PROBING_SIDE,
            Engine::Colour => crate::colour::ENGINE_SIDE,
        }
    }

    /// Its name in flags and reports: "dnf", "clues", "probing" or
    /// "colour".
    pub fn name(self) -> &'static str {
        match self {
            Engine::Dnf => "dnf",
            Engine::Clues => "clues",
            Engine::Probing => "probing",
            Engine::Colour => "colour",
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
    /// Receiving a colour board's clues (protocol v3); `inks` is None until
    /// COLOURS.
    Colours {
        rows: usize,
        columns: usize,
        inks: Option<usize>,
        clues: Vec<Vec<Block>>,
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
            State::Rows(_) | State::Board { .. } | State::Clues { .. } | State::Colours { .. } => {
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
            clues => clue_refusal(clues, o, d),
        })
    }

    /// Takes one message of a colour board (protocol v3).
    fn colour_message(&mut self, m: Message) -> Option<Vec<u8>> {
        let State::Colours {
            rows,
            columns,
            inks,
            clues,
            stored,
        } = &mut self.state
        else {
            unreachable!("a colour board is loading")
        };
        let index = m.index() as usize;
        let Some(k) = *inks else {
            // COLOURS first: without it, this is a board for another engine.
            return match m.code() {
                COLOURS if index == 0 => self.refuse(outcome::MALFORMED, detail::BAD_INK),
                COLOURS if index > crate::colour::ENGINE_INKS => {
                    self.refuse(outcome::OVER_CAPACITY, detail::BAD_INK)
                }
                COLOURS => {
                    *inks = Some(index);
                    None
                }
                code::START_LINE => self.refuse(outcome::OVER_CAPACITY, detail::NO_ENGINE),
                code::END_BOARD => self.refuse(outcome::MALFORMED, detail::WRONG_LINE),
                _ => self.refuse(outcome::MALFORMED, detail::UNEXPECTED),
            };
        };
        let (rows, total) = (*rows, *rows + *columns);
        match m.code() {
            code::START_LINE => {
                if !next_line(index, clues.len(), total) {
                    return self.refuse(outcome::MALFORMED, detail::WRONG_LINE);
                }
                clues.push(Vec::new());
            }
            code::ASSIGN if !clues.is_empty() => {
                let block = block_of(m);
                if block.ink == 0 || block.ink as usize > k {
                    return self.refuse(outcome::MALFORMED, detail::BAD_INK);
                }
                let line = clues.last_mut().expect("open line");
                if line.len() == clue_model::MAX_BLOCKS_PER_LINE || *stored == clue_model::CLUE_STORE_BLOCKS {
                    return self.refuse(outcome::OVER_CAPACITY, detail::TOO_MANY_BLOCKS);
                }
                line.push(block);
                *stored += 1;
            }
            code::END_BOARD if clues.len() == total => {
                let columns_clues = clues.split_off(rows);
                let mode = crate::colour::model::ColourMode {
                    budget: index as u16,
                    first: m.value(),
                };
                let verdict = crate::colour::model::solve(clues, &columns_clues, k + 1, mode);
                self.state = State::Idle;
                return Some(colour_reply(rows, columns_clues.len(), k, &verdict));
            }
            code::END_BOARD => return self.refuse(outcome::MALFORMED, detail::WRONG_LINE),
            _ => return self.refuse(outcome::MALFORMED, detail::UNEXPECTED),
        }
        None
    }

    /// Takes one message; returns a reply when the board answers.
    pub fn message(&mut self, m: Message) -> Option<Vec<u8>> {
        let index = m.index() as usize;
        match (m.code(), &mut self.state) {
            (code::START_BOARD, State::Rows(rows)) => {
                let (rows, columns) = (*rows, index);
                if m.value() != self.engine.takes_clues() {
                    return self.refuse(outcome::OVER_CAPACITY, detail::NO_ENGINE);
                }
                if self.engine.takes_clues() {
                    if rows == 0 || columns == 0 {
                        return self.refuse(outcome::MALFORMED, detail::BAD_SIZE);
                    }
                    let side = self.engine.clue_side();
                    if rows > side || columns > side {
                        return self.refuse(outcome::OVER_CAPACITY, detail::BAD_SIZE);
                    }
                    if self.engine == Engine::Colour {
                        self.state = State::Colours {
                            rows,
                            columns,
                            inks: None,
                            clues: Vec::with_capacity(rows + columns),
                            stored: 0,
                        };
                        return None;
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
                    clues => clue_refusal(clues, outcome::INFO, detail::NONE),
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
            (_, State::Colours { .. }) => self.colour_message(m),
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
                    code::START_LINE => {
                        if !next_line(index, clues.len(), total) {
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
                        let mode = clue_model::Mode {
                            budget: index as u16,
                            first: m.value(),
                            probe: self.engine == Engine::Probing,
                        };
                        let verdict = clue_model::run(clues, &columns_clues, mode);
                        debug_assert_eq!(verdict.columns, columns);
                        let engine = self.engine;
                        self.state = State::Idle;
                        return Some(clue_reply(engine, &verdict));
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
                        if !next_line(index, lines.len(), total) {
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

/// Whether START_LINE `index` opens the next line when `opened` of the
/// board's `total` are open (every version: 0 always means the next line).
fn next_line(index: usize, opened: usize, total: usize) -> bool {
    (index == opened || index == 0) && opened < total
}

mod replies;
pub use replies::{clue_refusal, clue_reply, colour_reply, encode_reply, info_reply, model_cycles, refusal};

#[cfg(test)]
mod tests;
