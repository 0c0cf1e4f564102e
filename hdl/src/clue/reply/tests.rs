//! The v2 reply on its own, driven as the clue core drives it (see
//! `bench::reply`): the SEARCH counts, which the engine holds from its
//! verdict until the next board, are noise only between an abort and the
//! next verdict; the engine's board memory is answered a cycle after each
//! read from a model of its Known, Value and DIFFERS rows (noise past the
//! last column and row). The bytes must be `board_model`'s reply exactly
//! (`clue_protocol::encode_reply` under it).

use super::*;
use crate::bench::reply::{bits, check_abort, check_reply, noise, Noise, ReplyBench, Start, Transmitter};
use crate::bench::{settle, tick};
use crate::board_model::{clue_refusal, clue_reply, Engine};
use crate::clue::clue_model::{ClueVerdict, BUDGET_RAN_OUT, FIRST_FOUND, MAX_SIDE, SEARCHED, TRAIL_RAN_OUT};
use crate::link::protocol::status::{detail, outcome};

/// A plane of the board memory's rows.
const KNOWN: usize = 0;
const VALUE: usize = 1;
const DIFFERS: usize = 2;

struct Bench {
    uut: ClueReply,
    tx: Transmitter,
    noise: Noise,
    /// The engine's board memory after its verdict: each of its 64 rows'
    /// Known, Value and DIFFERS words.
    memory: Vec<[u64; 3]>,
    /// The read of the last cycle: row and plane, and `read_differs` then
    /// (the engine applies it to the data a cycle later: it must hold).
    asked: (usize, usize, bool),
    /// The engine's SEARCH counts, held from its verdict until an abort.
    counts: Option<(u64, u64)>,
    busy: bool,
}

impl Bench {
    fn new(seed: u64) -> Bench {
        let mut uut = ClueReply::default();
        uut.connect_all();
        Bench {
            uut,
            tx: Transmitter::new(seed ^ 0xc10e),
            noise: noise(seed),
            memory: vec![],
            asked: (0, 0, false),
            counts: None,
            busy: false,
        }
    }
}

/// The board memory for a verdict: Value bits 0 in unknown cells (as the
/// engine keeps them), noise past the last column, in rows past the last,
/// in the Known words of a board with every cell known and in the DIFFERS
/// words but for SEVERAL.
fn memory_of(v: &ClueVerdict, n: &mut Noise) -> Vec<[u64; 3]> {
    (0..64)
        .map(|r| {
            let mut words = [n(), n(), n()];
            if r >= v.rows {
                return words;
            }
            for c in 0..v.columns {
                let (known, value) = match v.cells[r * v.columns + c] {
                    Some(x) => (true, x),
                    None => (false, false),
                };
                let set = |w: &mut u64, b: bool| *w = (*w & !(1 << c)) | (b as u64) << c;
                set(&mut words[KNOWN], known);
                set(&mut words[VALUE], value);
                if let Some(&d) = v.differs.get(r * v.columns + c) {
                    set(&mut words[DIFFERS], d);
                }
            }
            words
        })
        .collect()
}

impl ReplyBench for Bench {
    type Verdict = ClueVerdict;

    fn cycle(&mut self, start: Option<&Start<ClueVerdict>>, abort: bool) {
        let n = &mut self.noise;
        let u = &mut self.uut;
        u.abort.next = abort;
        u.board_done.next = matches!(start, Some(Start::Board(_)));
        u.refused.next = matches!(start, Some(Start::Refusal(..)));
        u.query.next = matches!(start, Some(Start::Query));
        u.rows.next = bits(n());
        u.columns.next = bits(n());
        u.solver_outcome.next = bits(n());
        u.board_cells.next = bits(n());
        u.all_known.next = n() & 1 == 1;
        u.detail.next = bits(n());
        u.cycles.next = bits(n());
        u.passes.next = bits(n());
        u.refuse_outcome.next = bits(n());
        u.refuse_detail.next = bits(n());
        match start {
            Some(Start::Board(v)) => {
                u.rows.next = bits(v.rows as u64);
                u.columns.next = bits(v.columns as u64);
                u.solver_outcome.next = bits(v.outcome as u64);
                u.board_cells.next = bits((v.rows * v.columns) as u64);
                u.all_known.next = v.cells.iter().all(Option::is_some);
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
        let (row, plane, differs) = self.asked;
        u.row_word.next = match self.memory.get(row) {
            Some(words) if differs == u.read_differs.val() => bits(words[plane]),
            _ => bits(n()),
        };
        u.tx_ready.next = self.tx.ready();
        settle(u);
        let (tx_start, tx_data, busy) = (u.tx_start.val(), u.tx_data.val().to_u8(), u.busy.val());
        let differs = u.read_differs.val();
        let plane = match (differs, u.read_value.val()) {
            (true, _) => DIFFERS,
            (false, true) => VALUE,
            (false, false) => KNOWN,
        };
        self.asked = (u.read_row.val().index(), plane, differs);
        tick(u, |u| &mut u.clock);
        self.tx.clock(tx_start, tx_data);
        self.busy = busy;
        if abort && !matches!(start, Some(Start::Board(_))) {
            self.counts = None;
        }
        if let Some(Start::Board(v)) = start {
            self.memory = memory_of(v, &mut self.noise);
        }
    }

    fn expected(start: &Start<ClueVerdict>) -> Vec<u8> {
        match start {
            Start::Board(v) => clue_reply(Engine::Clues, v),
            &Start::Refusal(o, d) => clue_refusal(Engine::Clues, o, d),
            Start::Query => clue_refusal(Engine::Clues, outcome::INFO, detail::NONE),
        }
    }

    fn tx(&self) -> &Transmitter {
        &self.tx
    }

    fn busy(&self) -> bool {
        self.busy
    }
}

/// A verdict on a board of that size: some cells unknown (none, a few,
/// half, all) and an outcome that fits (SOLVED, SEVERAL with a DIFFERS map,
/// CONTRADICTION, STALLED, GAVE_UP), any counts.
fn random_verdict(n: &mut Noise, rows: usize, columns: usize) -> ClueVerdict {
    let unknown = [0, 0, 0, 10, 50, 100][(n() % 6) as usize];
    let cells: Vec<Option<bool>> = (0..rows * columns)
        .map(|_| (n() % 100 >= unknown).then(|| n() & 1 == 1))
        .collect();
    let pick = |n: &mut Noise, from: &[u8]| from[(n() % from.len() as u64) as usize];
    let outcome = if cells.iter().all(Option::is_some) {
        pick(
            n,
            &[
                outcome::SOLVED,
                outcome::SEVERAL,
                outcome::SEVERAL,
                outcome::CONTRADICTION,
            ],
        )
    } else {
        pick(n, &[outcome::STALLED, outcome::CONTRADICTION, outcome::GAVE_UP])
    };
    let detail = match outcome {
        outcome::SOLVED => pick(n, &[0, FIRST_FOUND]),
        outcome::CONTRADICTION if n() % 3 == 0 => SEARCHED,
        outcome::CONTRADICTION => (n() % (rows + columns) as u64) as u8,
        outcome::GAVE_UP => pick(n, &[BUDGET_RAN_OUT, TRAIL_RAN_OUT]),
        _ => 0,
    };
    let density = n() % 101;
    let differs = match outcome {
        outcome::SEVERAL => (0..rows * columns).map(|_| n() % 100 < density).collect(),
        _ => vec![],
    };
    let count = |n: &mut Noise| [0, n() & 0xff, n() & 0xffff_ffff][(n() % 3) as usize];
    ClueVerdict {
        rows,
        columns,
        outcome,
        detail,
        cells,
        differs,
        visits: 0,
        passes: n() as u8,
        cycles: n() & 0xffff_ffff,
        nodes: count(n),
        backtracks: count(n),
        probes: 0,
        rounds: 0,
        forced: 0,
        cache_hits: 0,
    }
}

fn random_refusal(n: &mut Noise) -> Start<ClueVerdict> {
    let o = [outcome::OVER_CAPACITY, outcome::MALFORMED][(n() % 2) as usize];
    let d = if n() % 4 == 0 {
        n() as u8
    } else {
        (1 + n() % detail::TOO_MANY_BLOCKS as u64) as u8
    };
    Start::Refusal(o, d)
}

/// Any reply: a board (1×1, 64×64 if `largest`, one row or column, a
/// thirteen-cell board, or any size), a refusal or INFO.
fn random_start(n: &mut Noise, largest: bool) -> Start<ClueVerdict> {
    let (rows, columns) = match n() % 9 {
        0 => return random_refusal(n),
        1 => return Start::Query,
        2 => (1, 1),
        3 if largest => (MAX_SIDE, MAX_SIDE),
        4 => [(1, MAX_SIDE), (MAX_SIDE, 1), (13, 1), (1, 14)][(n() % 4) as usize],
        _ => (1 + (n() % 20) as usize, 1 + (n() % 20) as usize),
    };
    Start::Board(random_verdict(n, rows, columns))
}

fn describe(start: &Start<ClueVerdict>) -> String {
    match start {
        Start::Board(v) => format!("{}x{} outcome {}", v.rows, v.columns, v.outcome),
        Start::Refusal(o, d) => format!("refusal {o}/{d}"),
        Start::Query => "INFO".to_string(),
    }
}

/// A verdict with that outcome, its cells all known or not as it needs.
fn verdict_with(n: &mut Noise, rows: usize, columns: usize, outcome: u8, all_known: bool) -> ClueVerdict {
    loop {
        let v = random_verdict(n, rows, columns);
        if v.outcome == outcome && v.cells.iter().all(Option::is_some) == all_known {
            return v;
        }
    }
}

#[test]
fn sends_every_reply_as_the_board_model() {
    let mut b = Bench::new(0x5e12);
    let mut n = noise(0xbeef);
    let mut starts = vec![
        Start::Board(verdict_with(&mut n, 1, 1, outcome::SOLVED, true)),
        Start::Board(verdict_with(&mut n, 1, 1, outcome::STALLED, false)),
        Start::Board(verdict_with(&mut n, 1, 1, outcome::SEVERAL, true)),
        Start::Board(verdict_with(&mut n, MAX_SIDE, MAX_SIDE, outcome::SOLVED, true)),
        Start::Board(verdict_with(&mut n, MAX_SIDE, MAX_SIDE, outcome::STALLED, false)),
        Start::Board(verdict_with(&mut n, MAX_SIDE, MAX_SIDE, outcome::SEVERAL, true)),
        Start::Board(verdict_with(&mut n, 5, 8, outcome::GAVE_UP, false)),
        Start::Refusal(outcome::OVER_CAPACITY, detail::TOO_MANY_BLOCKS),
        Start::Query,
    ];
    starts.extend((0..60).map(|_| random_start(&mut n, true)));
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
    let mut b = Bench::new(0xab09);
    let mut n = noise(0xab0a);
    for (outcome, all_known) in [
        (outcome::STALLED, false),
        (outcome::SEVERAL, true),
        (outcome::SOLVED, true),
    ] {
        let first = Start::Board(verdict_with(&mut n, 4, 11, outcome, all_known));
        // The reply's length in cycles, roughly (the transmitter's pauses vary).
        let from = b.tx().bytes.len();
        let mut cycles = 0u64;
        b.cycle(Some(&first), false);
        while b.tx().bytes.len() < from + Bench::expected(&first).len() {
            b.cycle(None, false);
            cycles += 1;
        }
        let instants = (0..40).chain((40..cycles + 20).step_by((cycles / 80).max(1) as usize));
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
/// of its reply (the change that made the abort win over the verdict).
#[test]
fn an_abort_with_the_verdict_sends_nothing() {
    let mut b = Bench::new(0x0df);
    let mut n = noise(0x0e0);
    for size in [1, 4, MAX_SIDE] {
        let v = random_verdict(&mut n, size, size);
        b.cycle(Some(&Start::Board(v)), true);
        for _ in 0..2000 {
            b.cycle(None, false);
            assert!(!b.busy(), "{size}x{size}: busy after an abort with the verdict");
        }
        assert_eq!(b.tx().bytes, vec![], "{size}x{size}");
    }
    check_reply(&mut b, &Start::Query, true, "INFO after");
}
