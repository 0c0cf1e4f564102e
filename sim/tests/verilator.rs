//! The Verilog that RustHDL emits for the whole core, Verilated, against
//! RustHDL's own simulation of the same core (`CoreDriver`), for both cores:
//! the DNF core (protocol v1) and the clue core (protocol v2). The same host
//! bytes go in at the same cycles, and every byte out of `tx` (and the cycle it
//! completes on), every framing error and every change of `phase` must be the
//! same. RustHDL's simulator and its Verilog can disagree (operator widths,
//! precedence, keywords); the board runs the Verilog.
//!
//! The synthesised netlist is checked the same way: yosys `synth_ice40` maps
//! the emitted Verilog onto iCE40 cells (LUTs, carries, flip-flops, block
//! RAMs), and that netlist runs under Verilator with yosys's own cell models
//! (`ice40/cells_sim.v`), against the same RustHDL runs. What the board runs
//! is that netlist, placed and routed.
//!
//! The C++ harness is `sim/verilator/harness.cpp`, built by
//! `nonogram_sim::verilated` (cached, keyed by a hash of the Verilog, the
//! harness, the flags and the tools' versions, so only a change rebuilds).
//! The simulated board's Verilator back end runs the same build of the core.
//!
//! Without Verilator the test is skipped with a notice, unless `CI` is set
//! (CI installs Verilator and must check).

use nonogram_hdl::bench::boards::v1_stream;
use nonogram_hdl::bench::driver::{CoreDriver, SerialCore};
use nonogram_hdl::board_model::{BoardModel, Engine};
use nonogram_hdl::dnf::model::{self, Verdict};
use nonogram_hdl::link::protocol::{
    code, decode_reply, query_bytes, status, Message, Reply, IDLE_TIMEOUT_BITS,
};
use nonogram_sim::verilated::{self, verilator_version, warning_summary, yosys_version, Built, Flavor};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Instant;

/// Clocks per UART bit, in both simulations.
const CPB: u32 = nonogram_sim::SIM_CLOCKS_PER_BIT;

/// Clocks per UART bit on the board: 100 MHz / 9600 baud.
const BOARD_CPB: u32 = 10_417;

/// Cycles a session may take to go quiet before the RustHDL side is called hung.
const MAX_WAIT: u64 = 3_000_000;

// ---------------------------------------------------------------------------
// Sessions: what the host sends, when, and what the reply must say.

/// When a step's bytes are sent.
#[derive(Clone, Copy, Debug)]
enum Wait {
    /// At once (right after the previous step's bytes were queued).
    Now,
    /// Once the core has gone quiet (its reply sent, nothing going on).
    Quiet,
    /// Once quiet, then after the line's idle timeout, then quiet again.
    Silence,
    /// Once this many reply bytes to the previous step have arrived.
    ReplyBytes(usize),
}

/// What the bytes received after a step (until the next step is sent) must be.
#[derive(Clone, Debug)]
enum Expect {
    /// One whole reply, matching the model's verdict.
    Verdict(Verdict),
    /// One whole INFO reply.
    Info,
    /// One whole reply refusing the board with this outcome and detail.
    Refused(u8, u8),
    /// A reply cut short at a message boundary, then a whole one matching the verdict.
    CutThenVerdict(Verdict),
    /// Exactly these bytes (the board model's reply).
    Bytes(Vec<u8>),
    /// Anything (not checked against the model; still compared with the Verilog).
    Any,
}

#[derive(Clone, Debug)]
struct Step {
    wait: Wait,
    bytes: Vec<u8>,
    expect: Expect,
    what: String,
}

#[derive(Clone, Debug)]
struct Session {
    name: &'static str,
    /// The core it runs on.
    engine: Engine,
    steps: Vec<Step>,
}

impl Session {
    fn new(name: &'static str) -> Session {
        Session {
            name,
            engine: Engine::Dnf,
            steps: vec![],
        }
    }
    fn on_clue_core(name: &'static str) -> Session {
        Session {
            engine: Engine::Clues,
            ..Session::new(name)
        }
    }
    fn step(&mut self, wait: Wait, what: impl Into<String>, bytes: Vec<u8>, expect: Expect) {
        self.steps.push(Step {
            wait,
            bytes,
            expect,
            what: what.into(),
        });
    }
}

fn messages(list: &[(u8, u16, bool)]) -> Vec<u8> {
    list.iter()
        .flat_map(|&(c, i, v)| Message::new(c, i, v).to_bytes())
        .collect()
}

type Board = (&'static str, Vec<Vec<usize>>, Vec<Vec<usize>>);

/// The boards of the original project (design brief §6).
fn original_boards() -> Vec<Board> {
    let x = vec![
        vec![11],
        vec![1, 7, 1],
        vec![2, 5, 2],
        vec![3, 3, 3],
        vec![4, 1, 4],
        vec![5, 5],
        vec![4, 1, 4],
        vec![3, 3, 3],
        vec![2, 5, 2],
        vec![1, 7, 1],
        vec![11],
    ];
    vec![
        (
            "4x4",
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        ),
        (
            "5x5 D",
            vec![vec![3], vec![1, 1], vec![1, 1], vec![1, 1], vec![3]],
            vec![vec![5], vec![1, 1], vec![1, 1], vec![3], vec![]],
        ),
        (
            "6x7 heart",
            vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
            vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
        ),
        ("11x11 X", x.clone(), x),
    ]
}

fn original_session() -> Session {
    let mut s = Session::new("original boards and a query");
    for (i, (name, rows, columns)) in original_boards().into_iter().enumerate() {
        let verdict = model::solve_clues(&rows, &columns);
        assert_eq!(verdict.outcome, status::outcome::SOLVED, "{name}");
        // Every board with only its filled cells; the small ones also with every cell.
        for every_cell in [false, true] {
            if every_cell && i % 2 == 1 {
                continue;
            }
            let bytes = v1_stream(&rows, &columns, every_cell);
            let what = format!("{name}{}", if every_cell { " (every cell)" } else { "" });
            s.step(Wait::Quiet, what, bytes, Expect::Verdict(verdict.clone()));
        }
    }
    s.step(Wait::Quiet, "query", query_bytes().to_vec(), Expect::Info);
    s
}

/// A query, then a SWITCH while idle: the core raises BOOT (compared
/// cycle for cycle), and sends nothing.
fn query_session() -> Session {
    let mut s = Session::new("a query and a switch");
    s.step(Wait::Now, "query", query_bytes().to_vec(), Expect::Info);
    let switch = Message::new(code::SWITCH, 1, false).to_bytes().to_vec();
    s.step(Wait::Quiet, "switch", switch, Expect::Bytes(vec![]));
    s
}

fn malformed_session() -> Session {
    use code::*;
    use status::{detail, outcome};
    let (_, rows, columns) = original_boards().remove(2);
    let heart = v1_stream(&rows, &columns, false);
    let verdict = model::solve_clues(&rows, &columns);
    let mut s = Session::new("malformed streams");
    s.step(
        Wait::Now,
        "40x5: too large",
        messages(&[(START_BOARD, 40, false), (START_BOARD, 5, false)]),
        Expect::Refused(outcome::OVER_CAPACITY, detail::BAD_SIZE),
    );
    s.step(
        Wait::Quiet,
        "0x3: no rows",
        messages(&[(START_BOARD, 0, false), (START_BOARD, 3, false)]),
        Expect::Refused(outcome::MALFORMED, detail::BAD_SIZE),
    );
    s.step(
        Wait::Quiet,
        "heart cut in half, then silence",
        heart[..heart.len() / 2 + 1].to_vec(),
        Expect::Refused(outcome::MALFORMED, detail::TRUNCATED),
    );
    s.step(
        Wait::Silence,
        "START_LINE 1 first",
        messages(&[
            (START_BOARD, 2, false),
            (START_BOARD, 2, false),
            (START_LINE, 1, false),
        ]),
        Expect::Refused(outcome::MALFORMED, detail::WRONG_LINE),
    );
    s.step(
        Wait::Quiet,
        "END_BOARD after one line",
        messages(&[
            (START_BOARD, 2, false),
            (START_BOARD, 2, false),
            (START_LINE, 0, false),
            (ASSIGN, 0, true),
            (END_LINE, 0, false),
            (END_BOARD, 0, false),
        ]),
        Expect::Refused(outcome::MALFORMED, detail::WRONG_LINE),
    );
    s.step(
        Wait::Quiet,
        "ASSIGN outside the line",
        messages(&[
            (START_BOARD, 2, false),
            (START_BOARD, 3, false),
            (START_LINE, 0, false),
            (ASSIGN, 3, true),
        ]),
        Expect::Refused(outcome::MALFORMED, detail::CELL_OUT_OF_LINE),
    );
    s.step(
        Wait::Quiet,
        "NEXT_OPTION before any line",
        messages(&[
            (START_BOARD, 2, false),
            (START_BOARD, 2, false),
            (NEXT_OPTION, 0, false),
        ]),
        Expect::Refused(outcome::MALFORMED, detail::UNEXPECTED),
    );
    let garbage: Vec<u8> = (0..200u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    s.step(Wait::Quiet, "200 bytes of garbage", garbage, Expect::Any);
    s.step(
        Wait::Silence,
        "heart after garbage",
        heart.clone(),
        Expect::Verdict(verdict.clone()),
    );
    s.step(
        Wait::Quiet,
        "a lone START_BOARD",
        messages(&[(START_BOARD, 3, false)]),
        Expect::Any,
    );
    s.step(
        Wait::Silence,
        "query after it",
        query_bytes().to_vec(),
        Expect::Info,
    );
    s.step(Wait::Quiet, "half a message", vec![0xe0], Expect::Any);
    s.step(
        Wait::Silence,
        "query after it",
        query_bytes().to_vec(),
        Expect::Info,
    );
    s.step(Wait::Quiet, "heart", heart.clone(), Expect::Any);
    s.step(
        Wait::ReplyBytes(4),
        "heart again, mid-reply",
        heart,
        Expect::CutThenVerdict(verdict),
    );
    s
}

fn random_session(count: usize) -> Session {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut s = Session::new("random pictures");
    let mut seen = [0usize; 3];
    for _ in 0..count {
        let (rows, columns) = (1 + rand() as usize % 10, 1 + rand() as usize % 10);
        let fill = 35 + rand() % 40;
        let cells: Vec<bool> = (0..rows * columns).map(|_| rand() % 100 < fill).collect();
        let (r, c) = model::clues_of_picture(rows, columns, &cells);
        let verdict = model::solve_clues(&r, &c);
        seen[verdict.outcome as usize] += 1;
        let every_cell = rand() % 4 == 0;
        let what = format!("{rows}x{columns} picture, {fill}% filled");
        s.step(
            Wait::Quiet,
            what,
            v1_stream(&r, &c, every_cell),
            Expect::Verdict(verdict),
        );
    }
    // The largest lines, 32 cells, both ways: dense pictures, so that they
    // fit (a 32×32 takes minutes in RustHDL's simulation; the solver's
    // bench runs those).
    let mut dense = nonogram_hdl::bench::boards::Rng(0x32_32);
    for (rows, columns) in [(32, 3), (3, 32)] {
        let (r, c) = nonogram_hdl::bench::boards::dense_picture(&mut dense, rows, columns);
        let verdict = model::solve_clues(&r, &c);
        s.step(
            Wait::Quiet,
            format!("{rows}x{columns} dense picture"),
            v1_stream(&r, &c, false),
            Expect::Verdict(verdict),
        );
    }
    // Clues that cannot all hold: a contradiction.
    let (r, c) = (vec![vec![2], vec![]], vec![vec![1], vec![]]);
    let verdict = model::solve_clues(&r, &c);
    assert_eq!(verdict.outcome, status::outcome::CONTRADICTION);
    s.step(
        Wait::Quiet,
        "contradiction",
        v1_stream(&r, &c, false),
        Expect::Verdict(verdict),
    );
    assert!(seen[0] > 0 && seen[2] > 0, "solved and stalled boards: {seen:?}");
    s
}

// ---------------------------------------------------------------------------
// What both simulations report, and the comparison.

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Events {
    /// (cycle, phase): the value after the reset cycle at 0, then every change.
    phases: Vec<(u64, u8)>,
    /// (cycle, byte): bytes from `tx`, with the cycle their stop bit was sampled.
    bytes: Vec<(u64, u8)>,
    /// Cycles of bytes from `tx` with a low stop bit.
    framing_errors: Vec<u64>,
    /// Cycles run after the reset cycle.
    cycles: u64,
    /// (cycle, image): the core raised SB_WARMBOOT's BOOT (core flavours).
    boots: Vec<(u64, u8)>,
    /// (bytes received before, image): the top level's SB_WARMBOOT
    /// stand-in saw BOOT rise (its line comes in order among the bytes').
    warm_boots: Vec<(usize, u8)>,
}

impl Events {
    fn received(&self) -> Vec<u8> {
        self.bytes.iter().map(|&(_, b)| b).collect()
    }
}

/// A session as run by `CoreDriver`: the schedule of host bytes it produced,
/// what came out, and the bytes received after each step.
struct DriverRun {
    schedule: Vec<(u64, Vec<u8>)>,
    events: Events,
    replies: Vec<Vec<u8>>,
    seconds: f64,
}

fn run_driver(session: &Session) -> DriverRun {
    match session.engine {
        Engine::Dnf => run_driver_on::<nonogram_hdl::dnf::core::NonogramCore>(session),
        Engine::Clues => run_driver_on::<nonogram_hdl::clue::core::ClueCore>(session),
        Engine::Probing => run_driver_on::<nonogram_hdl::clue::core::ProbingCore>(session),
        Engine::Colour => run_driver_on::<nonogram_hdl::colour::core::ColourCore>(session),
    }
}

fn run_driver_on<C: SerialCore>(session: &Session) -> DriverRun {
    let mut driver = CoreDriver::<C>::with_core(CPB);
    let mut events = Events::default();
    let mut last_phase = driver.phase();
    events.phases.push((0, last_phase));
    let mut last_errors = 0;
    let start = Instant::now();
    let mut step = |driver: &mut CoreDriver<C>, events: &mut Events| {
        driver.step();
        let cycle = driver.cycles();
        for byte in driver.take_received() {
            events.bytes.push((cycle, byte));
        }
        let phase = driver.phase();
        if phase != last_phase {
            events.phases.push((cycle, phase));
            last_phase = phase;
        }
        if driver.framing_errors() != last_errors {
            last_errors = driver.framing_errors();
            events.framing_errors.push(cycle);
        }
        if let Some(image) = driver.boot().filter(|_| events.boots.is_empty()) {
            events.boots.push((cycle, image));
        }
    };
    let until_quiet = |driver: &mut CoreDriver<C>,
                       events: &mut Events,
                       step: &mut dyn FnMut(&mut CoreDriver<C>, &mut Events)| {
        let from = driver.cycles();
        while !driver.quiet() {
            assert!(
                driver.cycles() - from < MAX_WAIT,
                "{}: the RustHDL core did not go quiet",
                session.name
            );
            step(driver, events);
        }
    };
    let idle = IDLE_TIMEOUT_BITS as u64 * CPB as u64 + 64;
    let mut schedule = vec![];
    let mut reply_from = vec![];
    for s in &session.steps {
        match s.wait {
            Wait::Now => {}
            Wait::Quiet => until_quiet(&mut driver, &mut events, &mut step),
            Wait::Silence => {
                until_quiet(&mut driver, &mut events, &mut step);
                for _ in 0..idle {
                    step(&mut driver, &mut events);
                }
                until_quiet(&mut driver, &mut events, &mut step);
            }
            Wait::ReplyBytes(n) => {
                let from = driver.cycles();
                let since = *reply_from.last().unwrap_or(&0);
                while events.bytes.len() - since < n {
                    assert!(driver.cycles() - from < MAX_WAIT, "{}: no reply", session.name);
                    step(&mut driver, &mut events);
                }
            }
        }
        driver.send(&s.bytes);
        schedule.push((driver.cycles(), s.bytes.clone()));
        reply_from.push(events.bytes.len());
    }
    // The end: quiet, the idle timeout, quiet again.
    until_quiet(&mut driver, &mut events, &mut step);
    for _ in 0..idle {
        step(&mut driver, &mut events);
    }
    until_quiet(&mut driver, &mut events, &mut step);
    events.cycles = driver.cycles();
    let seconds = start.elapsed().as_secs_f64();
    reply_from.push(events.bytes.len());
    let replies = reply_from
        .windows(2)
        .map(|w| events.bytes[w[0]..w[1]].iter().map(|&(_, b)| b).collect())
        .collect();
    DriverRun {
        schedule,
        events,
        replies,
        seconds,
    }
}

fn assert_matches_model(what: &str, reply: &Reply, verdict: &Verdict) {
    assert_eq!(reply.outcome, verdict.outcome, "{what}: outcome");
    assert_eq!(
        (reply.rows, reply.columns),
        (verdict.rows, verdict.columns),
        "{what}: size"
    );
    assert_eq!(reply.cells, verdict.cells, "{what}: cells");
    assert_eq!(reply.cycles as u64, verdict.cycles, "{what}: cycles");
    assert_eq!(reply.passes, verdict.passes, "{what}: passes");
    assert_eq!(reply.options as usize, verdict.options, "{what}: options");
    if verdict.outcome == status::outcome::CONTRADICTION {
        assert_eq!(reply.detail, verdict.detail, "{what}: contradiction line");
    }
}

fn whole_reply(what: &str, bytes: &[u8]) -> Reply {
    let (reply, used) = decode_reply(bytes).unwrap_or_else(|e| panic!("{what}: {e}: {bytes:02x?}"));
    assert_eq!(used, bytes.len(), "{what}: bytes after the reply: {bytes:02x?}");
    reply
}

/// Checks the bytes received after each step against the step's expectation.
fn check_replies(session: &Session, replies: &[Vec<u8>]) {
    for (s, bytes) in session.steps.iter().zip(replies) {
        let what = format!("{}: {}", session.name, s.what);
        match &s.expect {
            Expect::Verdict(v) => assert_matches_model(&what, &whole_reply(&what, bytes), v),
            Expect::Info => {
                let reply = whole_reply(&what, bytes);
                assert_eq!(reply.outcome, status::outcome::INFO, "{what}");
                assert_eq!(
                    reply.max_line as usize,
                    nonogram_hdl::common::params::MAX_LINE,
                    "{what}"
                );
                assert_eq!(reply.version, nonogram_hdl::link::protocol::VERSION, "{what}");
            }
            Expect::Refused(outcome, detail) => {
                let reply = whole_reply(&what, bytes);
                assert_eq!((reply.outcome, reply.detail), (*outcome, *detail), "{what}");
                assert!(reply.cells.is_empty(), "{what}: a refusal carries no cells");
            }
            Expect::CutThenVerdict(v) => {
                assert_eq!(bytes.len() % 2, 0, "{what}: whole messages");
                let at = (2..bytes.len())
                    .step_by(2)
                    .find(|&i| decode_reply(&bytes[i..]).is_ok())
                    .unwrap_or_else(|| panic!("{what}: no whole reply in {bytes:02x?}"));
                assert!(
                    decode_reply(&bytes[..at]).is_err(),
                    "{what}: the first reply was cut"
                );
                assert_matches_model(&what, &whole_reply(&what, &bytes[at..]), v);
            }
            Expect::Bytes(want) => assert_eq!(bytes, want, "{what}: the board model's reply"),
            Expect::Any => {}
        }
    }
}

/// Where two runs first differ, or `Ok`.
fn compare(rusthdl: &Events, verilated: &Events) -> Result<(), String> {
    let mut out = String::new();
    fn first(out: &mut String, what: &str, a: &[String], b: &[String]) {
        if a == b {
            return;
        }
        let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let show = |v: &[String]| match &v[i.saturating_sub(2).min(v.len())..(i + 4).min(v.len())] {
            [] => "(none)".to_string(),
            shown => shown.join(" "),
        };
        let _ = writeln!(
            out,
            "  {what}: first difference at #{i} of {}/{}:\n    RustHDL   {}\n    Verilator {}",
            a.len(),
            b.len(),
            show(a),
            show(b)
        );
    }
    let bytes = |e: &Events| -> Vec<String> { e.bytes.iter().map(|(c, b)| format!("{c}:{b:02x}")).collect() };
    let errors = |e: &Events| -> Vec<String> { e.framing_errors.iter().map(|c| c.to_string()).collect() };
    let phases = |e: &Events| -> Vec<String> { e.phases.iter().map(|(c, p)| format!("{c}:{p}")).collect() };
    let boots = |e: &Events| -> Vec<String> { e.boots.iter().map(|(c, i)| format!("{c}:{i}")).collect() };
    first(
        &mut out,
        "warm boots (cycle:image)",
        &boots(rusthdl),
        &boots(verilated),
    );
    if rusthdl.cycles != verilated.cycles {
        let _ = writeln!(out, "  cycles: {} vs {}", rusthdl.cycles, verilated.cycles);
    }
    first(
        &mut out,
        "tx bytes (cycle:byte)",
        &bytes(rusthdl),
        &bytes(verilated),
    );
    first(
        &mut out,
        "tx framing errors (cycle)",
        &errors(rusthdl),
        &errors(verilated),
    );
    first(
        &mut out,
        "phase changes (cycle:phase)",
        &phases(rusthdl),
        &phases(verilated),
    );
    if out.is_empty() {
        Ok(())
    } else {
        Err(out)
    }
}

// ---------------------------------------------------------------------------
// Verilator: the build (cached) and a run.

/// The build, shared by the tests; started once, in the background.
struct Shared {
    result: Mutex<Option<Result<Built, String>>>,
    done: Condvar,
}

/// One build per core (DNF, clues, probing, colour) and flavor (RTL,
/// netlist, board top level).
static BUILD: [OnceLock<Option<&'static Shared>>; 12] = [const { OnceLock::new() }; 12];

/// Starts the build of `engine`'s core (once). `None` when Verilator (and
/// for the netlist, yosys) is not installed and this is not CI: the caller
/// skips.
fn start_build(engine: Engine, flavor: Flavor) -> Option<&'static Shared> {
    *BUILD[engine as usize * 3 + flavor as usize].get_or_init(|| {
        let tools = verilator_version().filter(|_| flavor == Flavor::Rtl || yosys_version().is_some());
        if tools.is_none() {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must check the Verilog with Verilator and the netlist with yosys: \
                 install them (apt-get install verilator yosys)"
            );
            return None;
        }
        let shared: &'static Shared = Box::leak(Box::new(Shared {
            result: Mutex::new(None),
            done: Condvar::new(),
        }));
        std::thread::spawn(move || {
            let verilog = match flavor {
                Flavor::BoardTop => nonogram_bsp::top::top_verilog(BOARD_CPB, engine),
                _ => Ok(verilated::core_verilog(engine, CPB)),
            };
            let result = verilog.and_then(|v| verilated::build(&v, flavor, engine));
            if let Ok(built) = &result {
                println!(
                    "verilator build of the {} core's {flavor:?}: {:.1} s ({}); warnings: {}",
                    engine.name(),
                    built.build_seconds,
                    if built.build_seconds > 0.0 {
                        "built"
                    } else {
                        "cached"
                    },
                    warning_summary(&built.log)
                );
            }
            *shared.result.lock().unwrap() = Some(result);
            shared.done.notify_all();
        });
        Some(shared)
    })
}

fn binary(shared: &Shared) -> PathBuf {
    let mut result = shared.result.lock().unwrap();
    while result.is_none() {
        result = shared.done.wait(result).unwrap();
    }
    match result.as_ref().unwrap() {
        Ok(built) => built.binary.clone(),
        Err(e) => panic!("{e}"),
    }
}

/// Runs the Verilated core on a schedule of host bytes for `cycles` cycles,
/// its block RAMs powered up zero (as RustHDL's) or random from a seed.
/// Returns what it reported and the seconds its loop took.
fn run_verilated(
    binary: &Path,
    schedule: &[(u64, Vec<u8>)],
    cycles: u64,
    random_init: Option<u64>,
    tag: &str,
) -> (Events, f64) {
    run_verilated_at(binary, CPB, schedule, cycles, random_init, tag)
}

/// As [`run_verilated`], at `cpb` clocks per UART bit.
fn run_verilated_at(
    binary: &Path,
    cpb: u32,
    schedule: &[(u64, Vec<u8>)],
    cycles: u64,
    random_init: Option<u64>,
    tag: &str,
) -> (Events, f64) {
    // A folder of its own for every run: tests running at once may use the
    // same tag (two of them both ran "alone" here, and one removed the
    // other's stream before it was read).
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("verilated-runs")
        .join(format!("{}-{run}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut args = vec![];
    if let Some(seed) = random_init {
        args.extend(["--random-init".to_string(), seed.to_string()]);
    }
    args.extend([cpb.to_string(), cycles.to_string()]);
    for (i, (at, bytes)) in schedule.iter().enumerate() {
        let file = dir.join(format!("{i:03}.bin"));
        std::fs::write(&file, bytes).unwrap();
        args.push(format!("@{at}:{}", file.display()));
    }
    let out = Command::new(binary)
        .args(&args)
        .output()
        .expect("the Verilated core runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the Verilated core failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut events = Events::default();
    let mut seconds = 0.0;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| words[i].parse::<u64>().unwrap();
        match words.first().copied() {
            Some("phase") => events.phases.push((num(1), num(2) as u8)),
            Some("byte") => events
                .bytes
                .push((num(1), u8::from_str_radix(words[2], 16).unwrap())),
            Some("framing_error") => events.framing_errors.push(num(1)),
            Some("boot") => events.boots.push((num(1), num(2) as u8)),
            Some("warmboot") => events.warm_boots.push((events.bytes.len(), num(1) as u8)),
            Some("cycles") => events.cycles = num(1),
            Some("seconds") => seconds = words[1].parse().unwrap(),
            _ => {}
        }
    }
    (events, seconds)
}

// ---------------------------------------------------------------------------
// The tests.

/// Runs the sessions through both simulations (the Verilated core once with
/// its block RAMs powered up zero, and once per seed in `random_inits` with
/// them random); panics with every run's first differences.
fn check_sessions(sessions: Vec<Session>, random_inits: &[u64]) {
    check_sessions_on(Flavor::Rtl, sessions, random_inits)
}

fn check_sessions_on(flavor: Flavor, sessions: Vec<Session>, random_inits: &[u64]) {
    let engine = sessions[0].engine;
    assert!(sessions.iter().all(|s| s.engine == engine), "one core per call");
    let Some(shared) = start_build(engine, flavor) else {
        eprintln!("skipped the Verilator check: verilator or yosys is not installed");
        return;
    };
    let runs: Vec<DriverRun> = sessions.iter().map(run_driver).collect();
    for (session, run) in sessions.iter().zip(&runs) {
        check_replies(session, &run.replies);
        assert!(
            run.events.framing_errors.is_empty(),
            "{}: RustHDL framing errors",
            session.name
        );
    }
    let binary = binary(shared);
    let mut failures = String::new();
    for (i, (session, run)) in sessions.iter().zip(&runs).enumerate() {
        let inits = std::iter::once(None).chain(random_inits.iter().copied().map(Some));
        for init in inits {
            let tag = format!("{i}-{init:?}");
            let wall = Instant::now();
            let (events, seconds) = run_verilated(&binary, &run.schedule, run.events.cycles, init, &tag);
            let wall = wall.elapsed().as_secs_f64();
            let cycles = run.events.cycles;
            let name = match init {
                None if flavor == Flavor::Netlist => format!("{} (the netlist)", session.name),
                None => session.name.to_string(),
                Some(seed) => format!("{} (block RAMs powered up random, seed {seed})", session.name),
            };
            let bytes_in = run.schedule.iter().map(|(_, b)| b.len()).sum::<usize>();
            let verilator = format!(
                "Verilator {seconds:.4} s ({:.0} cycles/s; {wall:.3} s with the process)",
                cycles as f64 / seconds.max(1e-9)
            );
            match init {
                None => println!(
                    "{name}: {bytes_in} bytes in, {} out, {cycles} cycles: RustHDL {:.2} s ({:.0} cycles/s), {verilator}",
                    run.events.bytes.len(),
                    run.seconds,
                    cycles as f64 / run.seconds,
                ),
                Some(_) => println!("{name}: {verilator}"),
            }
            if let Err(diff) = compare(&run.events, &events) {
                let stream: Vec<String> = run
                    .schedule
                    .iter()
                    .map(|(at, b)| format!("@{at}: {}", hex(b)))
                    .collect();
                let _ = writeln!(
                    failures,
                    "{name}: the Verilated {flavor:?} disagrees with RustHDL's simulation\n{diff}  \
                     RustHDL received   {}\n  Verilator received {}\n  host bytes (cycle queued: bytes):\n    {}",
                    hex(&run.events.received()),
                    hex(&events.received()),
                    stream.join("\n    ")
                );
            }
        }
    }
    assert!(failures.is_empty(), "\n{failures}");
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (i, b) in bytes.iter().enumerate() {
        if i == 64 {
            let _ = write!(s, " … ({} bytes)", bytes.len());
            break;
        }
        let _ = write!(s, "{}{b:02x}", if i == 0 { "" } else { " " });
    }
    s
}

#[test]
fn a_query_and_a_switch_get_the_same_answers_from_the_verilog() {
    let booted = run_driver(&query_session()).events.boots;
    assert!(
        matches!(booted[..], [(_, 1)]),
        "the SWITCH booted image 1: {booted:?}"
    );
    check_sessions(vec![query_session()], &[]);
}

#[test]
fn the_original_boards_get_the_same_replies_from_the_verilog() {
    check_sessions(vec![original_session()], &[]);
}

#[test]
fn malformed_streams_get_the_same_replies_from_the_verilog() {
    check_sessions(vec![malformed_session()], &[1]);
}

#[test]
fn random_pictures_get_the_same_replies_from_the_verilog() {
    check_sessions(vec![random_session(20)], &[2]);
}

/// The comparison can fail: the Verilated core fed a stream one bit off
/// from the driver's does not match it.
#[test]
fn a_different_stream_is_caught() {
    let Some(shared) = start_build(Engine::Dnf, Flavor::Rtl) else {
        eprintln!("skipped the Verilator check: verilator is not installed (apt-get install verilator)");
        return;
    };
    let session = original_session();
    let session = Session {
        steps: session.steps[..1].to_vec(),
        ..session
    };
    let run = run_driver(&session);
    let binary = binary(shared);
    let mut schedule = run.schedule.clone();
    schedule[0].1[3] ^= 0x02; // START_BOARD 4 columns → 5
    let (events, _) = run_verilated(&binary, &schedule, run.events.cycles, None, "different");
    assert!(
        compare(&run.events, &events).is_err(),
        "a different stream went unnoticed"
    );
    // And a cycle count one short is caught too.
    let (events, _) = run_verilated(&binary, &run.schedule, run.events.cycles - 1, None, "short");
    assert!(
        compare(&run.events, &events).is_err(),
        "a shorter run went unnoticed"
    );
}

/// Protocol v2 on the clue core: a query, random pictures up to 16×16
/// (solved, stalled and contradictory), a v1 board it refuses, and streams
/// that break the protocol. Each reply must be the board model's, byte for
/// byte, and the Verilog's the same bytes at the same cycles.
fn clue_session(count: usize) -> Session {
    use nonogram_hdl::clue::clue_protocol::encode_board as encode_clues;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut s = Session::on_clue_core("the clue core");
    let reply = |bytes: &[u8]| BoardModel::new(Engine::Clues).bytes(bytes);
    let q = query_bytes().to_vec();
    s.step(Wait::Now, "query", q.clone(), Expect::Bytes(reply(&q)));
    let mut outcomes = std::collections::BTreeSet::new();
    for _ in 0..count {
        let (rows, columns) = (1 + rand() as usize % 16, 1 + rand() as usize % 16);
        let fill = 35 + rand() % 40;
        let cells: Vec<bool> = (0..rows * columns).map(|_| rand() % 100 < fill).collect();
        let (r, c) = model::clues_of_picture(rows, columns, &cells);
        let mut bytes = vec![];
        encode_clues(&r, &c, 0, &mut bytes);
        let want = reply(&bytes);
        outcomes.insert(decode_any(&want));
        s.step(
            Wait::Quiet,
            format!("{rows}x{columns} picture, {fill}% filled"),
            bytes,
            Expect::Bytes(want),
        );
    }
    // Searches in first-solution mode: four 8×8 pictures at ½ that line
    // logic leaves to search (drawn from a stream of their own), each stopped
    // at the first solution.
    let mut picture_seed = 0x0f12_57u64;
    let mut found = 0;
    for _ in 0..200 {
        let cells: Vec<bool> = (0..64)
            .map(|_| {
                picture_seed ^= picture_seed << 13;
                picture_seed ^= picture_seed >> 7;
                picture_seed ^= picture_seed << 17;
                picture_seed % 2 == 0
            })
            .collect();
        let (r, c) = model::clues_of_picture(8, 8, &cells);
        let verdict = nonogram_hdl::clue::clue_model::first_solution(&r, &c, 4);
        if verdict.detail != nonogram_hdl::clue::clue_model::FIRST_FOUND {
            continue;
        }
        let mut bytes = vec![];
        nonogram_hdl::clue::clue_protocol::encode_search(&r, &c, 4, true, &mut bytes);
        let want = reply(&bytes);
        s.step(
            Wait::Quiet,
            format!("first solution, 8x8 #{found}"),
            bytes,
            Expect::Bytes(want),
        );
        found += 1;
        if found == 4 {
            break;
        }
    }
    assert_eq!(found, 4, "8x8 pictures that need search");
    // Clues that cannot all hold.
    let mut bytes = vec![];
    encode_clues(&[vec![2], vec![]], &[vec![1], vec![]], 0, &mut bytes);
    let want = reply(&bytes);
    outcomes.insert(decode_any(&want));
    s.step(Wait::Quiet, "contradiction", bytes, Expect::Bytes(want));
    // A v1 board: refused as NO_ENGINE.
    let (_, rows, columns) = original_boards().remove(2);
    let v1 = v1_stream(&rows, &columns, false);
    let want = reply(&v1);
    s.step(Wait::Quiet, "a v1 board", v1, Expect::Bytes(want));
    // Messages out of order: a BLOCKS before any START_LINE.
    let mut bad = vec![];
    encode_clues(&[vec![1]], &[vec![1]], 0, &mut bad);
    bad.drain(4..6);
    let want = reply(&bad);
    s.step(Wait::Quiet, "a line without START_LINE", bad, Expect::Bytes(want));
    assert!(
        outcomes.len() >= 3,
        "solved, stalled and contradictory boards: {outcomes:?}"
    );
    s
}

/// The outcome of a v2 reply, for the session's coverage.
fn decode_any(bytes: &[u8]) -> u8 {
    nonogram_hdl::clue::clue_protocol::decode_any_reply(bytes)
        .map(|(reply, _)| reply.outcome)
        .unwrap_or(u8::MAX)
}

#[test]
fn the_clue_core_gets_the_same_replies_from_the_verilog() {
    check_sessions(vec![clue_session(16)], &[3]);
}

/// The synthesised netlist of the DNF core (yosys `synth_ice40`, iCE40 cell
/// models) answers the original boards and the malformed streams with the
/// same bytes at the same cycles as RustHDL's simulation.
#[test]
fn the_dnf_netlist_gets_the_same_replies() {
    check_sessions_on(
        Flavor::Netlist,
        vec![original_session(), malformed_session()],
        &[],
    );
}

/// The same for the clue core's netlist.
#[test]
fn the_clue_netlist_gets_the_same_replies() {
    check_sessions_on(Flavor::Netlist, vec![clue_session(6)], &[]);
}

/// The Alchitry Cu top level as the board runs it: the real divisor (10 417
/// clocks per bit, 9600 baud at 100 MHz), the real idle timeout (80 bit
/// times, 833 360 cycles), the power-on reset, no reset from outside. One
/// whole board, then a stream cut off inside a board, which the idle timeout
/// must refuse as TRUNCATED; every reply must be the board model's, byte for
/// byte. The LEDs must light. RustHDL's own simulation would take an hour
/// for these tens of millions of cycles, so the reference is the model.
fn check_board_top(engine: Engine, board: Vec<u8>) {
    let Some(shared) = start_build(engine, Flavor::BoardTop) else {
        eprintln!("skipped the board top level check: verilator is not installed");
        return;
    };
    let binary = binary(shared);
    let bit = BOARD_CPB as u64;
    let mut model = BoardModel::new(engine);
    let first = model.bytes(&board);
    // The start of another board, cut off after one message of its first line.
    let cut = board[..6].to_vec();
    assert!(model.bytes(&cut).is_empty());
    let refusal = model
        .idle()
        .expect("a cut board is refused after the idle timeout");
    // Bytes take 10 bits each; the solve is short beside them.
    let first_at = 1_000;
    let cut_at = first_at + (board.len() + first.len() + 8) as u64 * 10 * bit + 2_000_000;
    let end = cut_at + (cut.len() + refusal.len() + 8) as u64 * 10 * bit + IDLE_TIMEOUT_BITS as u64 * bit;
    let schedule = vec![(first_at, board), (cut_at, cut)];
    let (events, seconds) = run_verilated_at(
        &binary,
        BOARD_CPB,
        &schedule,
        end,
        None,
        &format!("top-{engine:?}"),
    );
    println!(
        "the {} board top level at {BOARD_CPB} clocks per bit: {end} cycles in {seconds:.1} s ({:.0} cycles/s)",
        engine.name(),
        end as f64 / seconds
    );
    let received = events.received();
    let replies: Vec<u8> = first.iter().chain(&refusal).copied().collect();
    assert_eq!(hex(&received), hex(&replies), "the replies at the real divisor");
    assert!(events.framing_errors.is_empty());
    // The reply to the whole board was over before the cut stream began.
    let last_of_first = events.bytes[first.len() - 1].0;
    assert!(last_of_first < cut_at, "{last_of_first} < {cut_at}");
    // The LEDs moved (loading, solving, the outcome).
    assert!(events.phases.len() > 2, "LED changes: {:?}", events.phases);
}

#[test]
fn the_dnf_board_top_level_at_the_real_divisor() {
    let (_, rows, columns) = original_boards().remove(0);
    check_board_top(Engine::Dnf, v1_stream(&rows, &columns, true));
}

/// SWITCH at the top level, at the real divisor: one that arrives while the
/// reply is going out leaves the reply whole and boots nothing; one sent
/// when the board is idle raises SB_WARMBOOT's BOOT with S1 S0 = the other
/// image, and nothing more is sent.
fn check_board_top_switch(engine: Engine, board: Vec<u8>) {
    let Some(shared) = start_build(engine, Flavor::BoardTop) else {
        eprintln!("skipped the board top level SWITCH check: verilator is not installed");
        return;
    };
    let binary = binary(shared);
    let bit = BOARD_CPB as u64;
    let other = 1 - engine as u16;
    let switch = Message::new(code::SWITCH, other, false).to_bytes().to_vec();
    let mut model = BoardModel::new(engine);
    let reply = model.bytes(&board);
    let mut early = board.clone();
    early.extend(&switch);
    let first_at = 1_000;
    let idle_at = first_at + (early.len() + reply.len() + 8) as u64 * 10 * bit + 2_000_000;
    let end = idle_at + 4 * 10 * bit;
    let schedule = vec![(first_at, early), (idle_at, switch)];
    let (events, _) = run_verilated_at(
        &binary,
        BOARD_CPB,
        &schedule,
        end,
        None,
        &format!("switch-{engine:?}"),
    );
    assert_eq!(
        hex(&events.received()),
        hex(&reply),
        "{engine:?}: the reply, whole"
    );
    assert!(
        events.bytes.last().unwrap().0 < idle_at,
        "the reply ended before the second SWITCH"
    );
    assert_eq!(
        events.warm_boots,
        [(reply.len(), other as u8)],
        "{engine:?}: one warm boot, into the other image, after the whole reply"
    );
}

#[test]
fn the_board_top_levels_warm_boot_only_when_idle() {
    let (_, rows, columns) = original_boards().remove(0);
    check_board_top_switch(Engine::Dnf, v1_stream(&rows, &columns, false));
    let mut bytes = vec![];
    nonogram_hdl::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut bytes);
    check_board_top_switch(Engine::Clues, bytes);
}

#[test]
fn the_clue_board_top_level_at_the_real_divisor() {
    let (_, rows, columns) = original_boards().remove(2);
    let mut bytes = vec![];
    nonogram_hdl::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut bytes);
    check_board_top(Engine::Clues, bytes);
}

/// Protocol v3 on the colour core: a query, random colour pictures up to
/// 12×12 with up to four inks, line logic alone and searched in both modes
/// (solved, several, stalled, contradictory), refusals (no inks, five, a
/// v2 board, an ink past the board's). Each reply must be the board
/// model's, byte for byte, and the Verilog's the same bytes at the same
/// cycles.
fn colour_session(count: usize) -> Session {
    use nonogram_hdl::bench::boards::{random_colour_board, Rng};
    use nonogram_hdl::colour::colour_protocol::{decode_reply as decode_v3, encode_board, BLOCK, COLOURS};
    let mut s = Session {
        engine: Engine::Colour,
        ..Session::new("the colour core")
    };
    let reply = |bytes: &[u8]| BoardModel::new(Engine::Colour).bytes(bytes);
    let q = query_bytes().to_vec();
    s.step(Wait::Now, "query", q.clone(), Expect::Bytes(reply(&q)));
    let mut rng = Rng(0xc010_5e55);
    let mut outcomes = std::collections::BTreeSet::new();
    for i in 0..count {
        let (rows, columns, colours) = random_colour_board(&mut rng, 12, 12, 4);
        let (budget, first) = [(0, false), (1, false), (1, true)][i % 3];
        let mut bytes = vec![];
        encode_board(&rows, &columns, colours - 1, budget, first, &mut bytes);
        let want = reply(&bytes);
        outcomes.insert(decode_v3(&want).map_or(u8::MAX, |(r, _)| r.status.outcome));
        let what = format!(
            "{}x{} of {} inks, budget {budget}, first {first}",
            rows.len(),
            columns.len(),
            colours - 1
        );
        s.step(Wait::Quiet, what, bytes, Expect::Bytes(want));
    }
    let m = |c, i, v| Message::new(c, i, v).to_bytes().to_vec();
    let header = |k: u16| {
        [
            m(code::START_BOARD, 1, true),
            m(code::START_BOARD, 1, true),
            m(COLOURS, k, false),
        ]
        .concat()
    };
    for (what, bytes) in [
        ("no inks", header(0)),
        ("five inks", header(5)),
        (
            "ink 2 of 1",
            [header(1), m(code::START_LINE, 0, false), m(BLOCK, 2, false)].concat(),
        ),
        (
            "a v2 board",
            [
                m(code::START_BOARD, 1, true),
                m(code::START_BOARD, 1, true),
                m(code::START_LINE, 0, false),
            ]
            .concat(),
        ),
    ] {
        let want = reply(&bytes);
        s.step(Wait::Quiet, what, bytes, Expect::Bytes(want));
    }
    assert!(
        outcomes.len() >= 4,
        "solved, several, stalled and contradictory boards: {outcomes:?}"
    );
    s
}

#[test]
fn the_colour_core_gets_the_same_replies_from_the_verilog() {
    check_sessions(vec![colour_session(24)], &[5]);
}

/// The colour core's netlist.
#[test]
fn the_colour_netlist_gets_the_same_replies() {
    check_sessions_on(Flavor::Netlist, vec![colour_session(9)], &[]);
}

#[test]
fn the_colour_board_top_level_at_the_real_divisor() {
    use nonogram_hdl::colour::colour_protocol::encode_board;
    use nonogram_hdl::colour::line_logic::Block;
    let b = |length, ink| Block { length, ink };
    // docs/protocol.md's two-by-two: red and blue.
    let rows = [vec![b(1, 1), b(1, 2)], vec![b(1, 1)]];
    let columns = [vec![b(1, 1)], vec![b(1, 2), b(1, 1)]];
    let mut bytes = vec![];
    encode_board(&rows, &columns, 2, 0, false, &mut bytes);
    check_board_top(Engine::Colour, bytes);
}

/// Runs the Verilated core (RTL) on host bytes sent one after another from
/// cycle 1 000, for `cycles`; what came out. `None` when Verilator is missing.
fn verilated_bytes(
    engine: Engine,
    schedule: &[(u64, Vec<u8>)],
    cycles: u64,
    tag: &str,
) -> Option<Vec<(u64, u8)>> {
    let Some(shared) = start_build(engine, Flavor::Rtl) else {
        eprintln!("skipped: verilator is not installed");
        return None;
    };
    let (events, _) = run_verilated(&binary(shared), schedule, cycles, None, tag);
    assert!(events.framing_errors.is_empty());
    Some(events.bytes)
}

/// Search at length on the clue core's Verilog (millions of cycles, which
/// RustHDL's simulation would take minutes for), against the board model
/// byte for byte: a 30×30 whose search runs out of a budget of one unit
/// (GAVE_UP; the cells are line logic's, VALUES 0 where unknown), then a
/// 20×20 with several solutions found by search, then an 8×8 that search
/// proves has none.
#[test]
fn the_clue_core_gives_up_and_searches_like_the_model() {
    use nonogram_hdl::clue::clue_model;
    use nonogram_hdl::clue::clue_protocol::encode_board as encode_clues;
    let mut rand = nonogram_hdl::bench::xorshift(0x6a7e_0b0a);
    let picture = |rand: &mut dyn FnMut() -> u64,
                   rows: usize,
                   columns: usize,
                   want: &dyn Fn(&clue_model::ClueVerdict) -> bool,
                   budget| loop {
        let cells: Vec<bool> = (0..rows * columns).map(|_| rand() % 2 == 1).collect();
        let (r, c) = model::clues_of_picture(rows, columns, &cells);
        if want(&clue_model::search(&r, &c, budget)) {
            let mut bytes = vec![];
            encode_clues(&r, &c, budget, &mut bytes);
            return bytes;
        }
    };
    let gave_up = picture(&mut rand, 30, 30, &|v| v.outcome == status::outcome::GAVE_UP, 1);
    let several = picture(
        &mut rand,
        20,
        20,
        &|v| v.outcome == status::outcome::SEVERAL && v.nodes > 20,
        64,
    );
    // No solution, found by search: the clues of two pictures, mixed.
    let refuted = loop {
        let (r, _) = model::clues_of_picture(8, 8, &(0..64).map(|_| rand() % 2 == 1).collect::<Vec<_>>());
        let (_, c) = model::clues_of_picture(8, 8, &(0..64).map(|_| rand() % 2 == 1).collect::<Vec<_>>());
        let v = clue_model::search(&r, &c, 64);
        if v.outcome == status::outcome::CONTRADICTION && v.detail == 255 && v.nodes > 2 {
            let mut bytes = vec![];
            encode_clues(&r, &c, 64, &mut bytes);
            break bytes;
        }
    };
    let mut model = BoardModel::new(Engine::Clues);
    let mut expected = model.bytes(&gave_up);
    let first_reply = expected.len();
    expected.extend(model.bytes(&several));
    expected.extend(model.bytes(&refuted));
    let first_at = 1_000;
    // The give-up takes a budget unit (2^20 cycles) and its reply ~80 000.
    let second_at = first_at + 10 * CPB as u64 * gave_up.len() as u64 + (1 << 20) + 2_000_000;
    let third_at = second_at + 30_000_000;
    let schedule = vec![(first_at, gave_up), (second_at, several), (third_at, refuted)];
    let Some(bytes) = verilated_bytes(Engine::Clues, &schedule, third_at + 30_000_000, "gave-up") else {
        return;
    };
    let got: Vec<u8> = bytes.iter().map(|&(_, b)| b).collect();
    assert!(
        bytes.len() < first_reply || bytes[first_reply - 1].0 < second_at,
        "the first reply ended in time"
    );
    assert_eq!(hex(&got), hex(&expected), "GAVE_UP, then SEVERAL by search");
}

/// The reply-side rule for an abandoned board: the bytes the core sent for
/// it must be whole messages of the reply it would have sent alone, and only
/// those it had begun or made before the abort at `abort_at` (none if the
/// solve was still running); then comes the new board's reply, whole.
fn check_abandoned(
    what: &str,
    alone: &[(u64, u8)],
    abort_at: u64,
    got: &[(u64, u8)],
    new_reply: &[u8],
) -> Result<(), String> {
    let bytes: Vec<u8> = got.iter().map(|&(_, b)| b).collect();
    let Some(prefix) = bytes.len().checked_sub(new_reply.len()) else {
        return Err(format!(
            "{what}: {} bytes, shorter than the new reply",
            bytes.len()
        ));
    };
    if bytes[prefix..] != *new_reply {
        return Err(format!(
            "{what}: the new board's reply is not the model's: {}",
            hex(&bytes[prefix..])
        ));
    }
    // A byte is begun 9.5 bit times before the harness sees its stop bit.
    // The message being sent goes out whole, and so does the one the reply
    // had already made (pending for the transmitter); nothing after them.
    let begun = alone
        .iter()
        .filter(|&&(at, _)| at < abort_at + 10 * CPB as u64)
        .count();
    let allowed = (begun.div_ceil(2) * 2 + 2).min(alone.len());
    let old: Vec<u8> = alone.iter().map(|&(_, b)| b).collect();
    if prefix % 2 != 0 || prefix > allowed || bytes[..prefix] != old[..prefix] {
        return Err(format!(
            "{what}: {prefix} bytes before the new reply (at most {allowed}, whole messages of the old reply): {}",
            hex(&bytes[..prefix])
        ));
    }
    Ok(())
}

/// The stream of issue "one flash": a random 15×15 (693 options), then the
/// 6×7 heart sent at every cycle of the 15×15's solve and of the start of
/// its reply, through the DNF core's Verilog. The heart's reply must be the
/// model's every time, and nothing of the 15×15's may come out but whole
/// messages begun before the abort.
#[test]
fn an_abandoned_board_at_every_instant_leaves_no_trace() {
    let (_, rows, columns) = original_boards().remove(2);
    let heart = v1_stream(&rows, &columns, false);
    let (first_rows, first_columns) = nonogram_hdl::bench::boards::random_15x15();
    let first = v1_stream(&first_rows, &first_columns, false);
    check_abandoned_at_instants(Engine::Dnf, &first, &heart, 1);
}

/// The same on the clue core, mid-search: a 9×9 whose search makes
/// several guesses and goes back, abandoned for the heart at every 11th
/// cycle of its solve and at every one of the last 200 before its reply
/// (where the verdict and the abort, which comes two byte times after the
/// heart's first byte, can meet).
#[test]
fn an_abandoned_search_at_every_instant_leaves_no_trace() {
    use nonogram_hdl::clue::clue_model;
    use nonogram_hdl::clue::clue_protocol::encode_board as encode_clues;
    let mut rand = nonogram_hdl::bench::xorshift(0xab4_d0e5);
    let first = loop {
        let cells: Vec<bool> = (0..81).map(|_| rand() % 2 == 1).collect();
        let (r, c) = model::clues_of_picture(9, 9, &cells);
        let v = clue_model::search(&r, &c, 1);
        if v.backtracks >= 2 && (1_500..4_000).contains(&v.cycles) {
            let mut bytes = vec![];
            encode_clues(&r, &c, 1, &mut bytes);
            break bytes;
        }
    };
    let (_, rows, columns) = original_boards().remove(2);
    let mut heart = vec![];
    encode_clues(&rows, &columns, 0, &mut heart);
    check_abandoned_at_instants(Engine::Clues, &first, &heart, 11);
}

/// Sends `first` alone, then `first` followed by `second` with `second`
/// starting at every `stride`th cycle from just before `first`'s solve
/// starts to its reply's first byte, and at every one of the last 200,
/// through `engine`'s Verilated core; see [`check_abandoned`] for what each
/// run must give.
fn check_abandoned_at_instants(engine: Engine, first: &[u8], second: &[u8], stride: u64) {
    let second_reply = BoardModel::new(engine).bytes(second);
    let first_at = 1_000;
    let sent = first_at + 10 * CPB as u64 * first.len() as u64;
    let Some(alone) = verilated_bytes(engine, &[(first_at, first.to_vec())], sent + 400_000, "alone") else {
        return;
    };
    assert_eq!(
        alone.iter().map(|&(_, b)| b).collect::<Vec<_>>(),
        BoardModel::new(engine).bytes(first)
    );
    // The solve starts when the last byte is in; the reply's first byte
    // leaves as it ends. From an abort as the solve starts to one as the
    // reply's first message leaves:
    let (from, to) = (sent - 20 * CPB as u64 - 8, alone[0].0);
    let instants: Vec<u64> = (from..to)
        .filter(|at| (at - from) % stride == 0 || to - at <= 200)
        .collect();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let halves: Vec<_> = instants
            .chunks(instants.len().div_ceil(2))
            .map(|part| {
                let (second_reply, alone) = (&second_reply, &alone);
                scope.spawn(move || {
                    part.iter()
                        .filter_map(|&at| {
                            let schedule = [(first_at, first.to_vec()), (at, second.to_vec())];
                            let got = verilated_bytes(engine, &schedule, at + 400_000, &format!("at-{at}"))?;
                            // START_BOARD's abort comes with its second byte, two
                            // byte times on, and a few cycles of synchroniser
                            // and framer later.
                            let abort_at = at + 20 * CPB as u64 + 8;
                            check_abandoned(
                                &format!("{engine:?}: at cycle {at}"),
                                alone,
                                abort_at,
                                &got,
                                second_reply,
                            )
                            .err()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    println!(
        "{engine:?}: a {}-byte board abandoned at {} of the {} instants up to its reply (which began at cycle {}): {} wrong",
        first.len(),
        instants.len(),
        to - from,
        alone[0].0,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(8)].join("\n")
    );
}
