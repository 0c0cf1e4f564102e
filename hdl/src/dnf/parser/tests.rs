//! The v1 parser on its own, with a stand-in FIFO that records what it is
//! given: good boards in both encodings, every refusal, restarts, silences
//! and lost bytes.

use super::*;
use crate::bench::boards::{lines_of, v1_stream};
use crate::bench::{tick, yosys_check};
use crate::link::protocol::{status::detail, status::outcome, Message, IDLE_TIMEOUT_BITS};

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

fn heart() -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
    let columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
    (rows, columns)
}

#[test]
fn loads_a_board_in_both_encodings() {
    let (rows, columns) = heart();
    let lines = lines_of(&rows, &columns);
    for every_cell in [false, true] {
        let mut h = Harness::new(1 << 20);
        h.send(&v1_stream(&rows, &columns, every_cell));
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
        h.send(&v1_stream(&[vec![1]], &[vec![1]], false));
        assert_eq!((h.refused.len(), h.solved), (1, 1), "{name}: recovery");
    }
}

#[test]
fn refuses_a_board_over_the_fifo_capacity() {
    let (rows, columns) = heart();
    let total: usize = lines_of(&rows, &columns).iter().map(Vec::len).sum();
    let mut h = Harness::new(total - 1);
    h.send(&v1_stream(&rows, &columns, false));
    assert_eq!(h.refused, vec![(outcome::OVER_CAPACITY, detail::FIFO_FULL)]);
    assert_eq!(h.solved, 0);
    let mut h = Harness::new(total);
    h.send(&v1_stream(&rows, &columns, false));
    assert_eq!((h.refused.len(), h.solved), (0, 1), "exactly full fits");
}

#[test]
fn start_board_restarts_at_any_point() {
    let (rows, columns) = heart();
    let good = v1_stream(&rows, &columns, false);
    let mut h = Harness::new(1 << 20);
    h.send(&good[..good.len() / 2]);
    h.send(&good);
    assert_eq!((h.refused.len(), h.solved, h.aborts), (0, 1, 2));
    let lines = lines_of(&rows, &columns).concat();
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
    h.send(&v1_stream(&[vec![1]], &[vec![1]], false));
    assert_eq!((h.refused.len(), h.solved), (0, 1));
    // A lone START_BOARD, silence, then a good board.
    let mut h = Harness::new(1 << 20);
    h.send_messages(&[Message::new(code::START_BOARD, 5, false)]);
    h.wait_bits(IDLE_TIMEOUT_BITS + 5);
    h.send(&v1_stream(&[vec![1]], &[vec![1]], false));
    assert_eq!((h.refused.len(), h.solved), (0, 1));
    // Without the silence the stray START_BOARD pairs with the board's first.
    let mut h = Harness::new(1 << 20);
    h.send_messages(&[Message::new(code::START_BOARD, 5, false)]);
    h.send(&v1_stream(&[vec![1]], &[vec![1]], false));
    assert_eq!(h.solved, 0);
    // A board cut in the middle of a message is refused once the line is idle.
    let mut h = Harness::new(1 << 20);
    let good = v1_stream(&[vec![1]], &[vec![1]], false);
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
    let lines = lines_of(&rows, &columns);
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
    let good = v1_stream(&rows, &columns, false);
    let lines = lines_of(&rows, &columns).concat();
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
    let good = v1_stream(&rows, &columns, false);
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
