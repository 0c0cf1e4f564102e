//! The v2 parser on its own: bytes as the UART receiver delivers them (a
//! pulse of `rx_byte_valid`, then a random pause; noise on `rx_byte` in
//! between), and what it writes and pulses recorded as the clue engine and
//! the reply take it. Good boards up to 64×64 must load exactly what
//! `clue_protocol::encode_search` encoded; broken streams (edited messages,
//! lost bytes, silences) must be refused, answered and loaded as
//! `BoardModel` does (`tests/broken.rs`); START_BOARD restarts anywhere.

use super::*;
use crate::bench::boards::clues_drawn;
use crate::bench::{tick, xorshift};
use crate::clue::clue_model::CLUE_STORE_BLOCKS;
use crate::clue::clue_protocol::{encode_search, MAX_BUDGET};
use crate::link::protocol::status::{detail, outcome};
use crate::link::protocol::Message;

mod broken;
mod colours;

/// The parser's idle timeout, in cycles.
const IDLE: u64 = 120;

type Noise = dyn FnMut() -> u64;

#[derive(Clone, Debug, PartialEq)]
enum Event {
    Abort,
    Query,
    Refused(u8, u8),
    /// With `board_loaded`: rows, columns, budget, first-solution mode.
    Loaded(usize, usize, u16, bool),
    Switch(u16),
}

/// What goes down the line: a byte, a byte lost to a framing error, or a
/// silence longer than the idle timeout.
#[derive(Clone, Copy, Debug)]
enum Item {
    Byte(u8),
    Lost,
    Idle,
}

/// A board's clues, and END_BOARD's budget and mode.
#[derive(Clone, Debug)]
struct Board {
    rows: Vec<Vec<usize>>,
    columns: Vec<Vec<usize>>,
    budget: u16,
    first: bool,
}

impl Board {
    fn new(rows: &[Vec<usize>], columns: &[Vec<usize>], budget: u16, first: bool) -> Board {
        let (rows, columns) = (rows.to_vec(), columns.to_vec());
        Board {
            rows,
            columns,
            budget,
            first,
        }
    }

    /// Random clues: from a picture of random density, or (a third of the
    /// time) any blocks of 1..=64 cells, up to 32 a line; any budget.
    fn random(n: &mut Noise, rows: usize, columns: usize) -> Board {
        let (rows, columns) = if n() % 3 == 0 {
            let clue = |n: &mut Noise| -> Vec<usize> {
                let count = [0, 1, 2, n() % 33][(n() % 4) as usize];
                (0..count).map(|_| 1 + (n() % 64) as usize).collect()
            };
            (
                (0..rows).map(|_| clue(n)).collect(),
                (0..columns).map(|_| clue(n)).collect(),
            )
        } else {
            let density = 5 + n() % 90;
            clues_drawn(rows, columns, || n() % 100 < density)
        };
        let budget = [0, 1, MAX_BUDGET, (n() % 4096) as u16][(n() % 4) as usize];
        Board {
            rows,
            columns,
            budget,
            first: n() & 1 == 1,
        }
    }

    /// Its v2 stream; with `zero_lines`, START_LINE 0 for every line.
    fn stream(&self, zero_lines: bool) -> Vec<u8> {
        let mut bytes = vec![];
        encode_search(&self.rows, &self.columns, self.budget, self.first, &mut bytes);
        for pair in bytes.chunks_mut(2).filter(|_| zero_lines) {
            if Message::from_bytes([pair[0], pair[1]]).code() == code::START_LINE {
                pair.copy_from_slice(&Message::new(code::START_LINE, 0, false).to_bytes());
            }
        }
        bytes
    }

    /// The lines' blocks, rows then columns.
    fn lines(&self) -> Vec<Vec<usize>> {
        let lines = self.rows.iter().chain(&self.columns);
        lines
            .map(|c| c.iter().copied().filter(|&b| b > 0).collect())
            .collect()
    }

    fn fits(&self) -> bool {
        let lines = self.lines();
        lines.iter().all(|l| l.len() <= MAX_BLOCKS_PER_LINE) && lines.concat().len() <= CLUE_STORE_BLOCKS
    }

    fn loaded(&self) -> Event {
        Event::Loaded(self.rows.len(), self.columns.len(), self.budget, self.first)
    }
}

struct Harness {
    uut: ClueParser,
    noise: Box<Noise>,
    events: Vec<Event>,
    /// The clue writes since the last abort: (address, length), and each
    /// one's ink.
    clues: Vec<(usize, usize)>,
    inks: Vec<usize>,
    /// The engine's line table as the writes left it (noise at first):
    /// (first block, blocks).
    table: Vec<(usize, usize)>,
    /// The highest line written since the last abort.
    last_line: usize,
    /// No board open: no write may come (from power-up, and from the
    /// parser's verdict on a board to the next abort), nor while `loading`
    /// is low.
    closed: bool,
}

impl Harness {
    fn new(seed: u64) -> Harness {
        Harness::on(ClueParser::with_idle_cycles(IDLE), seed)
    }

    fn on(mut uut: ClueParser, seed: u64) -> Harness {
        uut.connect_all();
        let (noise, table) = (Box::new(xorshift(seed)), vec![(9999, 99); 128]);
        Harness {
            uut,
            noise,
            events: vec![],
            clues: vec![],
            inks: vec![],
            table,
            last_line: 0,
            closed: true,
        }
    }

    fn cycle(&mut self) {
        tick(&mut self.uut, |u| &mut u.clock);
        self.uut.rx_byte_valid.next = false;
        self.uut.rx_framing_error.next = false;
        self.uut.reset.next = false;
        self.uut.rx_byte.next = ((self.noise)() & 0xff).into();
        let u = &self.uut;
        if u.abort.val() {
            self.events.push(Event::Abort);
            self.clues.clear();
            self.inks.clear();
            self.last_line = 0;
            self.closed = false;
        }
        let open = !self.closed && u.loading.val();
        if u.clue_write.val() {
            assert!(open, "a clue write with no board loading");
            self.clues
                .push((u.clue_address.val().index(), u.clue_length.val().index()));
            self.inks.push(u.clue_ink.val().index());
        }
        if u.line_write.val() {
            assert!(open, "a line write with no board loading");
            let entry = (u.line_first.val().index(), u.line_blocks.val().index());
            self.table[u.line_number.val().index()] = entry;
            self.last_line = self.last_line.max(u.line_number.val().index());
        }
        let (rows, columns) = (u.rows.val().index(), u.columns.val().index());
        let verdict = [
            (u.query.val(), Event::Query),
            (
                u.refuse.val(),
                Event::Refused(u.refuse_outcome.val().to_u8(), u.refuse_detail.val().to_u8()),
            ),
            (
                u.board_loaded.val(),
                Event::Loaded(rows, columns, u.budget.val().to_u64() as u16, u.first_only.val()),
            ),
        ];
        for (_, event) in verdict.into_iter().filter(|v| v.0) {
            self.events.push(event);
            self.closed = true;
        }
        if u.switch.val() {
            self.events
                .push(Event::Switch(u.switch_image.val().to_u64() as u16));
        }
    }

    /// A byte, a lost byte, or a silence. The pause after a byte is mostly
    /// one to two byte times at a bit period of a clock or two, now and then
    /// longer, up to the longest that is not yet a silence.
    fn item(&mut self, item: Item) {
        match item {
            Item::Byte(b) => {
                self.uut.rx_byte.next = (b as u64).into();
                self.uut.rx_byte_valid.next = true;
            }
            Item::Lost => self.uut.rx_framing_error.next = true,
            Item::Idle => {}
        }
        let r = (self.noise)();
        let pause = match (item, r % 50) {
            (Item::Idle, _) => IDLE + 20,
            (_, 0) => IDLE,
            (_, 1..=3) => 10 + (r >> 8) % (IDLE - 10),
            _ => 10 + (r >> 8) % 11,
        };
        for _ in 0..pause {
            self.cycle();
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.item(Item::Byte(b)));
    }

    fn send_messages(&mut self, messages: &[Message]) {
        messages.iter().for_each(|m| self.send(&m.to_bytes()));
    }

    /// The events since the last call, aborts left out.
    fn take_verdicts(&mut self) -> Vec<Event> {
        let events = std::mem::take(&mut self.events).into_iter();
        events.filter(|e| *e != Event::Abort).collect()
    }

    /// The board just sent loaded whole: its size, budget and mode with
    /// `board_loaded`, every block written in order from address 0, and
    /// each line's first block and count in the line table.
    fn check_loaded(&self, board: &Board, what: &str) {
        assert_eq!(
            self.events.last(),
            Some(&board.loaded()),
            "{what}: events {:?}",
            self.events
        );
        let lines = board.lines();
        let blocks: Vec<(usize, usize)> = lines.concat().into_iter().enumerate().collect();
        assert_eq!(self.clues, blocks, "{what}: clue writes");
        let mut at = 0;
        for (line, clue) in lines.iter().enumerate() {
            // (An empty line after the store's last block: its first block
            // would be the 2 049th, 0 on the 11-bit port.)
            let first = at % CLUE_STORE_BLOCKS;
            assert_eq!(
                self.table[line],
                (first, clue.len()),
                "{what}: line {line}'s table entry"
            );
            at += clue.len();
        }
        assert_eq!(self.last_line + 1, lines.len(), "{what}: the last line written");
        assert!(!self.uut.loading.val(), "{what}: still loading");
    }
}

#[test]
fn loads_random_boards_up_to_64_by_64() {
    let mut h = Harness::new(0x10ad);
    let mut n = xorshift(0x10ae);
    let mut sizes = vec![(1, 1), (MAX_SIDE, MAX_SIDE), (1, MAX_SIDE), (MAX_SIDE, 1)];
    sizes.extend((0..30).map(|_| (1 + (n() % 64) as usize, 1 + (n() % 64) as usize)));
    let mut loaded = 0;
    for (i, &(r, c)) in sizes.iter().enumerate() {
        let board = Board::random(&mut n, r, c);
        let zero_lines = n() % 4 == 0;
        let what = format!(
            "board {i}, {r}x{c}, budget {} first {}",
            board.budget, board.first
        );
        h.send(&board.stream(zero_lines));
        if board.fits() {
            h.check_loaded(&board, &format!("{what}, START_LINE 0 for all: {zero_lines}"));
            loaded += 1;
        } else {
            let refusal = Event::Refused(outcome::OVER_CAPACITY, detail::TOO_MANY_BLOCKS);
            assert_eq!(h.events.last(), Some(&refusal), "{what}");
        }
        assert_eq!(h.take_verdicts().len(), 1, "{what}: one verdict");
    }
    assert!(loaded >= 25, "{loaded} loaded");
}

/// The store's and a line's limits, at and one past them: 32 blocks a line,
/// 2 048 a board; the block one too many as the first or the second of its
/// BLOCKS message.
#[test]
fn loads_up_to_the_limits_and_refuses_past_them() {
    let blocks = |count: usize, length: usize| vec![length; count];
    let m = |code, index, value| Message::new(code, index, value);
    let mut h = Harness::new(0x1111);
    let too_many = Event::Refused(outcome::OVER_CAPACITY, detail::TOO_MANY_BLOCKS);
    // A line of 32 blocks loads, 33 do not.
    let board = Board::new(&[blocks(32, 1)], &vec![vec![1]; 64], 0, false);
    h.send(&board.stream(false));
    h.check_loaded(&board, "32 blocks in a row");
    h.send(&Board::new(&[blocks(33, 1)], &board.columns, 0, false).stream(false));
    assert_eq!(h.take_verdicts().last(), Some(&too_many), "33 blocks in a row");
    // The 33rd as the second block of a message: 31 blocks one a message, then a pair.
    let mut messages = vec![m(code::START_BOARD, 1, true), m(code::START_BOARD, 64, true)];
    messages.push(m(code::START_LINE, 0, false));
    messages.extend((0..31).map(|_| m(code::ASSIGN, 0, false)));
    messages.extend([m(code::ASSIGN, 0, true), m(code::ASSIGN, 0, true)]);
    h.send_messages(&messages);
    assert_eq!(h.take_verdicts(), vec![too_many.clone()], "the 33rd block second");
    // 2 048 blocks in a 64×64 board load; one more does not, first or second in its message.
    let rows = [vec![blocks(1, 64)], vec![blocks(32, 1); 63]].concat();
    let mut columns = vec![blocks(30, 1), blocks(1, 2)];
    columns.resize(64, vec![]);
    let full = Board::new(&rows, &columns, 7, true);
    h.send(&full.stream(false));
    h.check_loaded(&full, "2048 blocks");
    for (line, clue, what) in [(1, blocks(2, 2), "second"), (63, blocks(1, 5), "first")] {
        let mut board = full.clone();
        board.columns[line] = clue;
        h.send(&board.stream(false));
        assert_eq!(
            h.take_verdicts().last(),
            Some(&too_many),
            "2049 blocks, {what} in its message"
        );
    }
}

#[test]
fn refuses_what_breaks_the_protocol() {
    let m = |code, index, value| Message::new(code, index, value);
    let size = |r, c, v1: bool| vec![m(code::START_BOARD, r, true), m(code::START_BOARD, c, !v1)];
    let board = |r, c, rest: &[Message]| [size(r, c, false), rest.to_vec()].concat();
    let line = |i| m(code::START_LINE, i, false);
    let lone = m(code::START_BOARD, 3, true);
    let (block, end) = (m(code::ASSIGN, 2 << 6, false), m(code::END_BOARD, 0, false));
    let (switch, end_line) = (m(code::SWITCH, 1, false), m(code::END_LINE, 0, false));
    let next_option = m(code::NEXT_OPTION, 0, false);
    let (malformed, over) = (outcome::MALFORMED, outcome::OVER_CAPACITY);
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<Message>, (u8, u8))> = vec![
        ("zero rows", size(0, 3, false), (malformed, detail::BAD_SIZE)),
        ("zero columns", size(3, 0, false), (malformed, detail::BAD_SIZE)),
        ("65 rows", size(65, 3, false), (over, detail::BAD_SIZE)),
        ("65 columns", size(3, 65, false), (over, detail::BAD_SIZE)),
        ("4095 by 4095", size(4095, 4095, false), (over, detail::BAD_SIZE)),
        ("a board of options (v1)", size(3, 3, true), (over, detail::NO_ENGINE)),
        ("v1 of size 0", size(0, 0, true), (over, detail::NO_ENGINE)),
        ("lone START_BOARD, a line", vec![lone, line(0)], (malformed, detail::UNEXPECTED)),
        ("lone START_BOARD, SWITCH", vec![lone, switch], (malformed, detail::UNEXPECTED)),
        ("BLOCKS before a line", board(2, 2, &[block]), (malformed, detail::UNEXPECTED)),
        ("SWITCH before a line", board(1, 1, &[switch]), (malformed, detail::UNEXPECTED)),
        ("END_LINE", board(1, 1, &[line(0), block, end_line]), (malformed, detail::UNEXPECTED)),
        ("NEXT_OPTION", board(1, 1, &[line(0), next_option]), (malformed, detail::UNEXPECTED)),
        ("SWITCH in a line", board(1, 1, &[line(0), switch]), (malformed, detail::UNEXPECTED)),
        ("first line not 0", board(2, 2, &[line(1)]), (malformed, detail::WRONG_LINE)),
        ("END_BOARD before a line", board(2, 2, &[end]), (malformed, detail::WRONG_LINE)),
        ("line out of order", board(2, 2, &[line(0), line(2)]), (malformed, detail::WRONG_LINE)),
        ("a line again", board(2, 2, &[line(0), line(1), line(1)]), (malformed, detail::WRONG_LINE)),
        ("a line too many", board(1, 1, &[line(0), line(1), line(2)]), (malformed, detail::WRONG_LINE)),
        ("a line too many, 0", board(1, 1, &[line(0), line(0), line(0)]), (malformed, detail::WRONG_LINE)),
        ("END_BOARD early", board(1, 2, &[line(0), block, line(0), end]), (malformed, detail::WRONG_LINE)),
    ];
    let good = Board::new(&[vec![1], vec![]], &[vec![1, 2], vec![64]], 3, false);
    for (name, messages, (o, d)) in cases {
        let mut h = Harness::new(name.len() as u64 + 1);
        h.send_messages(&messages);
        assert_eq!(h.take_verdicts(), vec![Event::Refused(o, d)], "{name}");
        // Whatever follows of that board is ignored, and a good board loads.
        h.send_messages(&[block, line(1), end]);
        h.send(&good.stream(false));
        h.check_loaded(&good, name);
        assert_eq!(h.take_verdicts().len(), 1, "{name}: recovery");
    }
}

/// QUERY anywhere: an abort and a query; a board being loaded is dropped.
/// SWITCH outside a board: its image, no refusal.
#[test]
fn query_and_switch() {
    let good = Board::new(&[vec![2], vec![1]], &[vec![1], vec![2]], 0, false);
    let bytes = good.stream(false);
    let query = Message::new(code::QUERY, 0, false).to_bytes();
    for at in (0..=bytes.len()).step_by(2) {
        let mut h = Harness::new(at as u64 + 5);
        h.send(&bytes[..at]);
        h.take_verdicts();
        h.send(&query);
        assert_eq!(
            h.events,
            vec![Event::Abort, Event::Query],
            "QUERY after {at} bytes"
        );
        // The rest of the board (past its START_BOARD pair) is ignored.
        if at >= 4 {
            h.send(&bytes[at..]);
        }
        assert_eq!(h.take_verdicts(), vec![Event::Query], "after {at} bytes");
        h.send(&bytes);
        h.check_loaded(&good, &format!("after a QUERY at {at}"));
    }
    let mut h = Harness::new(9);
    h.send_messages(&[Message::new(code::SWITCH, 1, false)]);
    h.send(&bytes);
    h.send_messages(&[Message::new(code::SWITCH, 3, false)]);
    let expected = vec![Event::Switch(1), good.loaded(), Event::Switch(3)];
    assert_eq!(h.take_verdicts(), expected);
}

/// START_BOARD at any message boundary of a board starts the next one over;
/// so does a reset.
#[test]
fn start_board_restarts_at_any_point() {
    let mut n = xorshift(0x5a5a);
    let (first, second) = (Board::random(&mut n, 4, 5), Board::random(&mut n, 3, 6));
    let bytes = first.stream(false);
    // (After a lone START_BOARD the next pair's first is taken as its columns.)
    for at in (0..=bytes.len()).step_by(2).filter(|&at| at != 2) {
        let mut h = Harness::new(at as u64);
        h.send(&bytes[..at]);
        h.send(&second.stream(false));
        h.check_loaded(&second, &format!("cut at {at}"));
        let aborts = h.events.iter().filter(|e| **e == Event::Abort).count();
        assert_eq!(aborts, 1 + (at > 0) as usize, "cut at {at}: {:?}", h.events);
        assert_eq!(
            h.take_verdicts().len(),
            1 + (at == bytes.len()) as usize,
            "cut at {at}"
        );
    }
    let mut h = Harness::new(77);
    let half = bytes.len() / 4 * 2;
    h.send(&bytes[..half]);
    h.uut.reset.next = true;
    h.cycle();
    assert_eq!(h.events, vec![Event::Abort, Event::Abort], "the reset's abort");
    h.send(&bytes[half..]);
    assert_eq!(h.take_verdicts(), vec![], "after a reset");
    h.send(&second.stream(false));
    h.check_loaded(&second, "after a reset");
}

/// Both builds' Verilog synthesises for the iCE40 (no latches, nothing
/// undriven); their sizes for the record. Built without colour, the v3
/// logic is a constant's dead branch: 262 LUT4s and the same 204
/// flip-flops as before it was added (256 LUT4s then).
#[test]
fn verilog_synthesises() {
    for (name, mut uut) in [
        ("clue_parser_v2", ClueParser::with_side(4, 64)),
        ("clue_parser_v3", ClueParser::with_colours(4, None, 32, 4)),
    ] {
        uut.connect_all();
        if let Some(log) = crate::bench::yosys_check(&uut, name) {
            let luts = crate::bench::yosys_cell_count(&log, "SB_LUT4");
            println!("{name}: {luts} LUT4s");
            assert!(luts > 100, "{name}: {luts} LUT4s");
        }
    }
}
