//! The v3 reply on its own, driven as the colour core drives it (see
//! `bench::reply`): the solver's board is answered a cycle after each read
//! from a model of its rows and kept rows (noise past the last column and
//! row). The bytes must be `board_model`'s reply exactly
//! (`colour_protocol::encode_reply` under it).

use super::*;
use crate::bench::reply::{bits, check_abort, check_reply, noise, Noise, ReplyBench, Start, Transmitter};
use crate::bench::{settle, tick};
use crate::board_model::{clue_refusal, colour_reply, Engine};
use crate::clue::clue_model::{BUDGET_RAN_OUT, FIRST_FOUND, SEARCHED, TRAIL_RAN_OUT};
use crate::colour::model::ColourVerdict;
use crate::link::protocol::status::{detail, outcome};

/// What the solver holds at its verdict: the board's cells, and the kept
/// first solution's if one is kept; the verdict the board model replies
/// with (its cells the kept ones for SOLVED or SEVERAL with one kept).
#[derive(Clone, Debug)]
struct Held {
    rows: usize,
    columns: usize,
    inks: usize,
    board: Vec<u8>,
    kept: Option<Vec<u8>>,
    verdict: ColourVerdict,
}

struct Bench {
    uut: ColourReply,
    tx: Transmitter,
    noise: Noise,
    /// The solver's board after its verdict: 32 rows then 32 kept rows,
    /// five planes each.
    memory: Vec<[u64; 5]>,
    /// The read of the last cycle: its row, kept or not.
    asked: (usize, bool),
    counts: Option<(u64, u64)>,
    busy: bool,
}

impl Bench {
    fn new(seed: u64) -> Bench {
        let mut uut = ColourReply::default();
        uut.connect_all();
        Bench {
            uut,
            tx: Transmitter::new(seed ^ 0xc010),
            noise: noise(seed),
            memory: vec![],
            asked: (0, false),
            counts: None,
            busy: false,
        }
    }
}

/// Rows of five planes holding `cells`, noise elsewhere.
fn rows_of(cells: &[u8], columns: usize, n: &mut Noise) -> Vec<[u64; 5]> {
    (0..32)
        .map(|r| {
            let mut planes = [0u64; 5];
            for (c, plane) in planes.iter_mut().enumerate() {
                *plane = n() & 0xffff_ffff;
                for j in 0..columns {
                    if let Some(&cell) = cells.get(r * columns + j) {
                        *plane = (*plane & !(1 << j)) | ((cell >> c & 1) as u64) << j;
                    }
                }
            }
            planes
        })
        .collect()
}

fn memory_of(h: &Held, n: &mut Noise) -> Vec<[u64; 5]> {
    let mut memory = rows_of(&h.board, h.columns, n);
    let kept = h.kept.clone().unwrap_or_default();
    memory.extend(rows_of(&kept, h.columns, n));
    memory
}

fn word(planes: &[u64; 5]) -> Bits<PLANE_BITS> {
    let mut w: Bits<PLANE_BITS> = 0.into();
    for (c, &plane) in planes.iter().enumerate() {
        for j in 0..32 {
            w = w.replace_bit(32 * c + j, plane >> j & 1 == 1);
        }
    }
    w
}

impl ReplyBench for Bench {
    type Verdict = Held;

    fn cycle(&mut self, start: Option<&Start<Held>>, abort: bool) {
        let n = &mut self.noise;
        let u = &mut self.uut;
        u.abort.next = abort;
        u.board_done.next = matches!(start, Some(Start::Board(_)));
        u.refused.next = matches!(start, Some(Start::Refusal(..)));
        u.query.next = matches!(start, Some(Start::Query));
        u.rows.next = bits(n());
        u.columns.next = bits(n());
        u.inks.next = bits(n());
        u.solver_outcome.next = bits(n());
        u.board_cells.next = bits(n());
        u.all_decided.next = n() & 1 == 1;
        u.kept.next = n() & 1 == 1;
        u.detail.next = bits(n());
        u.cycles.next = bits(n());
        u.passes.next = bits(n());
        u.refuse_outcome.next = bits(n());
        u.refuse_detail.next = bits(n());
        match start {
            Some(Start::Board(h)) => {
                let v = &h.verdict;
                u.rows.next = bits(h.rows as u64);
                u.columns.next = bits(h.columns as u64);
                u.inks.next = bits(h.inks as u64);
                u.solver_outcome.next = bits(v.outcome as u64);
                u.board_cells.next = bits((h.rows * h.columns) as u64);
                u.all_decided.next = h.board.iter().all(|c| c.count_ones() == 1);
                u.kept.next = h.kept.is_some();
                u.detail.next = bits(v.detail as u64);
                u.cycles.next = bits(v.cycles);
                u.passes.next = bits(v.passes as u64);
                self.counts = Some((v.nodes, v.backtracks));
            }
            Some(&Start::Refusal(o, d)) => {
                u.refuse_outcome.next = bits(o as u64);
                u.refuse_detail.next = bits(d as u64);
            }
            _ => {}
        }
        let (nodes, backtracks) = self.counts.unwrap_or_else(|| (n(), n()));
        u.nodes.next = bits(nodes);
        u.backtracks.next = bits(backtracks);
        let (row, kept) = self.asked;
        u.row_word.next = match self.memory.get(row + 32 * kept as usize) {
            Some(planes) => word(planes),
            None => word(&[n(), n(), n(), n(), n()]),
        };
        u.tx_ready.next = self.tx.ready();
        settle(u);
        let (tx_start, tx_data, busy) = (u.tx_start.val(), u.tx_data.val().to_u8(), u.busy.val());
        self.asked = (u.read_row.val().index(), u.read_kept.val());
        tick(u, |u| &mut u.clock);
        self.tx.clock(tx_start, tx_data);
        self.busy = busy;
        if abort && !matches!(start, Some(Start::Board(_))) {
            self.counts = None;
        }
        if let Some(Start::Board(h)) = start {
            self.memory = memory_of(h, &mut self.noise);
        }
    }

    fn expected(start: &Start<Held>) -> Vec<u8> {
        match start {
            Start::Board(h) => colour_reply(h.rows, h.columns, h.inks, &h.verdict),
            &Start::Refusal(o, d) => clue_refusal(Engine::Colour, o, d),
            Start::Query => clue_refusal(Engine::Colour, outcome::INFO, detail::NONE),
        }
    }

    fn tx(&self) -> &Transmitter {
        &self.tx
    }

    fn busy(&self) -> bool {
        self.busy
    }
}

/// What the solver may hold for that outcome on a board of that size with
/// that many inks: SOLVED by line logic or a first solution (the board
/// decided) or after a search for uniqueness (the answer kept, the board
/// back at its root); SEVERAL (the first kept, the second on the board);
/// CONTRADICTION, STALLED, GAVE_UP (with a first solution kept or not).
fn random_held(n: &mut Noise, rows: usize, columns: usize, inks: usize, outcome: u8) -> Held {
    let colours = inks as u64 + 1;
    let decided = |n: &mut Noise| -> Vec<u8> { (0..rows * columns).map(|_| 1 << (n() % colours)).collect() };
    let open = |n: &mut Noise| -> Vec<u8> {
        let share = [5, 50, 100][(n() % 3) as usize];
        let mut cells: Vec<u8> = (0..rows * columns)
            .map(|_| {
                if n() % 100 < share {
                    (1 + n() % ((1 << colours) - 1)) as u8
                } else {
                    1 << (n() % colours)
                }
            })
            .collect();
        // At least one cell open, with two colours or more.
        let at = (n() % cells.len() as u64) as usize;
        cells[at] = 0b11 << (n() % inks as u64);
        cells
    };
    let pick = |n: &mut Noise, from: &[u8]| from[(n() % from.len() as u64) as usize];
    let (board, kept, detail) = match outcome {
        outcome::SOLVED => match n() % 3 {
            0 => (decided(n), None, 0),
            1 => (decided(n), None, FIRST_FOUND),
            _ => (open(n), Some(decided(n)), 0),
        },
        outcome::SEVERAL => (decided(n), Some(decided(n)), 0),
        outcome::CONTRADICTION => {
            let board = if n() % 2 == 0 { open(n) } else { decided(n) };
            let d = if n() % 3 == 0 {
                SEARCHED
            } else {
                (n() % (rows + columns) as u64) as u8
            };
            (board, None, d)
        }
        outcome::STALLED => (open(n), None, 0),
        _ => {
            let kept = (n() % 2 == 0).then(|| decided(n));
            (open(n), kept, pick(n, &[BUDGET_RAN_OUT, TRAIL_RAN_OUT]))
        }
    };
    let (cells, second) = match (&kept, outcome) {
        (Some(k), outcome::SEVERAL) => (k.clone(), board.clone()),
        (Some(k), outcome::SOLVED) => (k.clone(), vec![]),
        _ => (board.clone(), vec![]),
    };
    let count = |n: &mut Noise| [0, n() & 0xff, n() & 0xffff_ffff][(n() % 3) as usize];
    let verdict = ColourVerdict {
        outcome,
        detail,
        line: None,
        cells,
        second,
        passes: n() as u8,
        visits: 0,
        nodes: count(n),
        backtracks: count(n),
        cycles: n() & 0xffff_ffff,
    };
    Held {
        rows,
        columns,
        inks,
        board,
        kept,
        verdict,
    }
}

fn random_refusal(n: &mut Noise) -> Start<Held> {
    let o = [outcome::OVER_CAPACITY, outcome::MALFORMED][(n() % 2) as usize];
    let d = if n() % 4 == 0 {
        n() as u8
    } else {
        (1 + n() % detail::BAD_INK as u64) as u8
    };
    Start::Refusal(o, d)
}

const OUTCOMES: [u8; 5] = [
    outcome::SOLVED,
    outcome::SEVERAL,
    outcome::CONTRADICTION,
    outcome::STALLED,
    outcome::GAVE_UP,
];

/// Any reply: a board (1×1, 32×32 if `largest`, one row or column, or
/// any size) with any inks and outcome, a refusal or INFO.
fn random_start(n: &mut Noise, largest: bool) -> Start<Held> {
    let (rows, columns) = match n() % 9 {
        0 => return random_refusal(n),
        1 => return Start::Query,
        2 => (1, 1),
        3 if largest => (32, 32),
        4 => [(1, 32), (32, 1), (13, 1), (1, 14)][(n() % 4) as usize],
        _ => (1 + (n() % 20) as usize, 1 + (n() % 20) as usize),
    };
    let inks = 1 + (n() % 4) as usize;
    let outcome = OUTCOMES[(n() % 5) as usize];
    Start::Board(random_held(n, rows, columns, inks, outcome))
}

fn describe(start: &Start<Held>) -> String {
    match start {
        Start::Board(h) => format!(
            "{}x{} {} inks outcome {} kept {}",
            h.rows,
            h.columns,
            h.inks,
            h.verdict.outcome,
            h.kept.is_some()
        ),
        Start::Refusal(o, d) => format!("refusal {o}/{d}"),
        Start::Query => "INFO".to_string(),
    }
}

#[test]
fn sends_every_reply_as_the_board_model() {
    let mut b = Bench::new(0x5e13);
    let mut n = noise(0xc0c0);
    let mut starts = vec![];
    for (size, inks) in [(1, 1), (32, 4)] {
        for outcome in OUTCOMES {
            starts.push(Start::Board(random_held(&mut n, size, size, inks, outcome)));
        }
    }
    starts.push(Start::Refusal(outcome::OVER_CAPACITY, detail::BAD_INK));
    starts.push(Start::Query);
    starts.extend((0..50).map(|_| random_start(&mut n, true)));
    for (i, start) in starts.iter().enumerate() {
        // The parser's query comes with an abort; a refusal may too.
        let abort = match start {
            Start::Query => n() % 4 != 0,
            Start::Refusal(..) => n() % 2 == 0,
            Start::Board(_) => false,
        };
        check_reply(&mut b, start, abort, &format!("reply {i}, {}", describe(start)));
        for _ in 0..n() % 3 * 20 {
            b.cycle(None, false);
        }
    }
}

#[test]
fn an_abort_anywhere_ends_at_a_message_and_the_next_reply_is_whole() {
    let mut b = Bench::new(0xab0b);
    let mut n = noise(0xab0c);
    for outcome in [outcome::STALLED, outcome::SEVERAL, outcome::SOLVED] {
        let first = Start::Board(random_held(&mut n, 4, 11, 3, outcome));
        let from = b.tx().bytes.len();
        let mut cycles = 0u64;
        b.cycle(Some(&first), false);
        while b.tx().bytes.len() < from + Bench::expected(&first).len() {
            b.cycle(None, false);
            cycles += 1;
        }
        let instants = (0..40).chain((40..cycles + 20).step_by((cycles / 60).max(1) as usize));
        for at in instants {
            let then = random_start(&mut n, false);
            let delay = [0, 0, 1, 2, 3, n() % 60][(n() % 6) as usize];
            let what = format!(
                "abort {at} cycles into {}, then {} {delay} later",
                describe(&first),
                describe(&then)
            );
            check_abort(&mut b, &first, at, &then, delay, &what);
        }
    }
}

/// The verdict's own cycle: the abort is the abandoned board's, so no byte
/// of its reply.
#[test]
fn an_abort_with_the_verdict_sends_nothing() {
    let mut b = Bench::new(0x0e1);
    let mut n = noise(0x0e2);
    for size in [1, 4, 32] {
        let h = random_held(&mut n, size, size, 2, outcome::SOLVED);
        b.cycle(Some(&Start::Board(h)), true);
        for _ in 0..2000 {
            b.cycle(None, false);
            assert!(!b.busy(), "{size}x{size}: busy after an abort with the verdict");
        }
        assert_eq!(b.tx().bytes, vec![], "{size}x{size}");
    }
    check_reply(&mut b, &Start::Query, true, "INFO after");
}

#[test]
fn verilog_synthesises() {
    let mut uut = ColourReply::default();
    uut.connect_all();
    crate::bench::yosys_check(&uut, "colour_reply");
}
