//! The v1 reply assembler on its own, driven as the core drives it (see
//! `bench::reply`), with the solver's top-row port answered from a model of
//! the board's rows with the solver's read latency (noise while a row is on
//! its way). The bytes must be `board_model`'s reply exactly.

use super::*;
use crate::bench::reply::{bits, check_abort, check_reply, noise, Noise, ReplyBench, Start, Transmitter};
use crate::bench::{settle, tick};
use crate::board_model::{encode_reply, info_reply, refusal};
use crate::dnf::model::Verdict;
use crate::link::protocol::status::{detail, outcome};

/// The solver's rows as its top-row port gives them: Known and Value words,
/// with noise in the Value bits of unknown cells and past the last column.
fn grid_of(v: &Verdict, noise: &mut Noise) -> Vec<(u64, u64)> {
    (0..v.rows)
        .map(|r| {
            let (mut known, mut value) = (0u64, 0u64);
            for c in 0..MAX_LINE {
                let (k, x) = match v.cells.get(r * v.columns + c).filter(|_| c < v.columns) {
                    Some(&Some(x)) => (true, x),
                    Some(None) => (false, noise() & 1 == 1),
                    None => (noise() & 1 == 1, noise() & 1 == 1),
                };
                known |= (k as u64) << c;
                value |= (x as u64) << c;
            }
            (known, value)
        })
        .collect()
}

struct Bench {
    uut: ReplyAssembler,
    tx: Transmitter,
    noise: Noise,
    /// The solver's rows after its verdict, the one on top, and the cycles
    /// until it is on the port (a row is asked for with `next_row` and
    /// arrives three cycles later; row 0 the cycle after the verdict).
    grid: Vec<(u64, u64)>,
    top: usize,
    stale: u32,
    busy: bool,
}

impl Bench {
    fn new(seed: u64) -> Bench {
        let mut uut = ReplyAssembler::default();
        uut.connect_all();
        Bench {
            uut,
            tx: Transmitter::new(seed ^ 0x7a11),
            noise: noise(seed),
            grid: vec![],
            top: 0,
            stale: 1,
            busy: false,
        }
    }
}

impl ReplyBench for Bench {
    type Verdict = Verdict;

    fn cycle(&mut self, start: Option<&Start<Verdict>>, abort: bool) {
        let n = &mut self.noise;
        let u = &mut self.uut;
        u.abort.next = abort;
        u.board_done.next = matches!(start, Some(Start::Board(_)));
        u.refused.next = matches!(start, Some(Start::Refusal(..)));
        u.query.next = matches!(start, Some(Start::Query));
        u.rows.next = bits(n());
        u.columns.next = bits(n());
        u.solver_outcome.next = bits(n());
        u.contradiction_line.next = bits(n());
        u.cycles.next = bits(n());
        u.passes.next = bits(n());
        u.options.next = bits(n());
        u.refuse_outcome.next = bits(n());
        u.refuse_detail.next = bits(n());
        match start {
            Some(Start::Board(v)) => {
                u.rows.next = bits(v.rows as u64);
                u.columns.next = bits(v.columns as u64);
                u.solver_outcome.next = bits(v.outcome as u64);
                if v.outcome == outcome::CONTRADICTION {
                    u.contradiction_line.next = bits(v.detail as u64);
                }
                u.cycles.next = bits(v.cycles);
                u.passes.next = bits(v.passes as u64);
                u.options.next = bits(v.options as u64);
            }
            Some(&Start::Refusal(o, d)) => {
                u.refuse_outcome.next = bits(o as u64);
                u.refuse_detail.next = bits(d as u64);
            }
            _ => {}
        }
        let (known, value) = match self.grid.get(self.top) {
            Some(&row) if self.stale == 0 => row,
            _ => (n(), n()),
        };
        u.top_known.next = bits(known);
        u.top_value.next = bits(value);
        u.tx_ready.next = self.tx.ready();
        settle(u);
        let (tx_start, tx_data) = (u.tx_start.val(), u.tx_data.val().to_u8());
        let (next_row, busy) = (u.next_row.val(), u.busy.val());
        tick(u, |u| &mut u.clock);
        self.tx.clock(tx_start, tx_data);
        self.busy = busy;
        self.stale = self.stale.saturating_sub(1);
        if next_row {
            self.top += 1;
            self.stale = 2;
        }
        if let Some(Start::Board(v)) = start {
            self.grid = grid_of(v, &mut self.noise);
            (self.top, self.stale) = (0, 0);
        }
    }

    fn expected(start: &Start<Verdict>) -> Vec<u8> {
        match start {
            Start::Board(v) => encode_reply(v),
            &Start::Refusal(o, d) => refusal(o, d),
            Start::Query => info_reply(),
        }
    }

    fn tx(&self) -> &Transmitter {
        &self.tx
    }

    fn busy(&self) -> bool {
        self.busy
    }

    fn after_reply(&self, start: &Start<Verdict>, what: &str) {
        if let Start::Board(v) = start {
            assert_eq!(self.top, v.rows, "{what}: rows asked of the solver");
        }
    }
}

/// A verdict on a board of that size: some cells unknown (none, a few,
/// half, all), SOLVED, STALLED or CONTRADICTION accordingly, any counts.
fn random_verdict(n: &mut Noise, rows: usize, columns: usize) -> Verdict {
    let unknown = [0, 0, 10, 50, 100][(n() % 5) as usize];
    let cells: Vec<Option<bool>> = (0..rows * columns)
        .map(|_| (n() % 100 >= unknown).then(|| n() & 1 == 1))
        .collect();
    let all_known = cells.iter().all(Option::is_some);
    let outcome = match n() % 3 {
        0 => outcome::CONTRADICTION,
        _ if all_known => outcome::SOLVED,
        _ => outcome::STALLED,
    };
    let detail = match outcome {
        outcome::CONTRADICTION => (n() % (rows + columns) as u64) as u8,
        _ => 0,
    };
    let cycles = [n() & 0xffff_ffff, n() & 0xff, 0xffff_ffff][(n() % 3) as usize];
    Verdict {
        rows,
        columns,
        outcome,
        detail,
        cells,
        visits: 0,
        options_read: 0,
        passes: n() as u8,
        options: (n() % (1 << COUNT_BITS)) as usize,
        cycles,
    }
}

fn random_refusal(n: &mut Noise) -> Start<Verdict> {
    let o = [outcome::OVER_CAPACITY, outcome::MALFORMED][(n() % 2) as usize];
    let d = if n() % 4 == 0 {
        n() as u8
    } else {
        (1 + n() % detail::NO_ENGINE as u64) as u8
    };
    Start::Refusal(o, d)
}

/// Any reply: a board (1×1, the largest if `largest`, long and thin, or
/// any size), a refusal or INFO.
fn random_start(n: &mut Noise, largest: bool) -> Start<Verdict> {
    let (rows, columns) = match n() % 8 {
        0 => return random_refusal(n),
        1 => return Start::Query,
        2 => (1, 1),
        3 if largest => (MAX_LINE, MAX_LINES - MAX_LINE),
        4 => [(1, MAX_LINE), (MAX_LINE, 1)][(n() % 2) as usize],
        _ => (1 + (n() % 12) as usize, 1 + (n() % 12) as usize),
    };
    Start::Board(random_verdict(n, rows, columns))
}

#[test]
fn sends_every_reply_as_the_board_model() {
    let mut b = Bench::new(0x5e11);
    let mut n = noise(0xdead);
    let mut starts = vec![
        Start::Board(random_verdict(&mut n, 1, 1)),
        Start::Board(random_verdict(&mut n, MAX_LINE, MAX_LINES - MAX_LINE)),
        Start::Refusal(outcome::MALFORMED, detail::TRUNCATED),
        Start::Query,
    ];
    starts.extend((0..40).map(|_| random_start(&mut n, true)));
    for (i, start) in starts.iter().enumerate() {
        // The parser's query comes with an abort; a refusal may too.
        let abort = match start {
            Start::Query => n() % 4 != 0,
            Start::Refusal(..) => n() % 2 == 0,
            Start::Board(_) => false,
        };
        check_reply(&mut b, start, abort, &format!("reply {i}, {}", describe(start)));
        // A next pulse at once or after a while.
        for _ in 0..n() % 3 * 20 {
            b.cycle(None, false);
        }
    }
}

fn describe(start: &Start<Verdict>) -> String {
    match start {
        Start::Board(v) => format!("{}x{} outcome {}", v.rows, v.columns, v.outcome),
        Start::Refusal(o, d) => format!("refusal {o}/{d}"),
        Start::Query => "INFO".to_string(),
    }
}

#[test]
fn an_abort_anywhere_ends_at_a_message_and_the_next_reply_is_whole() {
    let mut b = Bench::new(0xab07);
    let mut n = noise(0xab08);
    for round in 0..3 {
        let first = Start::Board(random_verdict(&mut n, 3 + round, 5));
        // The reply's length in cycles, roughly (the transmitter's pauses vary).
        let from = b.tx().bytes.len();
        let mut cycles = 0u64;
        b.cycle(Some(&first), false);
        while b.tx().bytes.len() < from + Bench::expected(&first).len() {
            b.cycle(None, false);
            cycles += 1;
        }
        let instants = (0..24).chain((24..cycles + 20).step_by((cycles / 60).max(1) as usize));
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

#[test]
fn an_abort_with_the_verdict_sends_nothing() {
    let mut b = Bench::new(0x0dd);
    let mut n = noise(0x0de);
    for size in [1, 4, MAX_LINE] {
        let v = random_verdict(&mut n, size, size);
        b.cycle(Some(&Start::Board(v)), true);
        for _ in 0..2000 {
            b.cycle(None, false);
            assert!(!b.busy(), "{size}x{size}: busy after an abort with the verdict");
        }
        assert_eq!(b.tx().bytes, vec![], "{size}x{size}");
    }
    // And the next reply is whole.
    check_reply(&mut b, &Start::Query, true, "INFO after");
}
