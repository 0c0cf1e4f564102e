//! Formal properties of the gateware, checked with yosys-smtbmc on the
//! Verilog RustHDL emits: each block's Verilog is read together with a small
//! wrapper in `hdl/formal/` that drives it and holds the assumptions, the
//! assertions and a `cover` for each assertion. The test exposes every
//! register `x` of the block as a port `x$q`, so that a wrapper can tie the
//! block's state to its observers (the strengthening k-induction needs).
//!
//! Each check is one of [`Check`]: a bounded model check, a k-induction
//! proof (the assertions then hold for ever), or a cover run showing that
//! every property's interesting case is reachable, so none is vacuous. A
//! failed check writes a VCD trace and prints its path.
//!
//! Without yosys-smtbmc and z3 the checks are skipped with a notice, unless
//! `CI` is set (CI installs them). (Debian's boolector 3 speaks an SMT-LIB
//! dialect yosys 0.23's smtbmc does not, so z3 is the one solver used.)

use nonogram_hdl::clue::parser::ClueParser;
use nonogram_hdl::clue::reply::ClueReply;
use nonogram_hdl::dnf::parser::MessageParser;
use nonogram_hdl::dnf::reply::ReplyAssembler;
use nonogram_hdl::link::framer::MessageFramer;
use nonogram_hdl::link::session::BoardSession;
use nonogram_hdl::link::uart_rx::UartRx;
use nonogram_hdl::link::uart_tx::UartTx;
use rust_hdl::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use Check::{Bmc, Cover, Induction};

/// What yosys-smtbmc checks of a wrapper, to what depth (clock cycles).
#[derive(Clone, Copy, Debug)]
enum Check {
    /// Every assertion holds in the first n cycles from power-up.
    Bmc(u32),
    /// k-induction: every assertion holds in the first k cycles from
    /// power-up (the base case, a BMC), and k consecutive cycles in which
    /// they hold, from any state, are always followed by one in which they
    /// hold (the step): they hold for ever.
    Induction(u32),
    /// Every `cover` is reached within n cycles from power-up, on a trace
    /// that keeps the assumptions and the assertions.
    Cover(u32),
}

/// The SMT solver yosys-smtbmc drives, if it and the solver are installed.
fn solver() -> Option<&'static str> {
    let runs = |tool: &str, arg: &str| Command::new(tool).arg(arg).output().is_ok();
    (runs("yosys-smtbmc", "-h") && runs("z3", "--version")).then_some("z3")
}

/// Checks the wrapper `hdl/formal/{wrapper}.v` around `block`'s Verilog;
/// panics with the failing properties and the trace's VCD.
fn prove<B: Block>(block: B, wrapper: &str, check: Check) {
    prove_with(block, wrapper, check, false)
}

/// As [`prove`]; with `flat`, the block is flattened first, so that the
/// registers of its sub-blocks are ports too (`framer.idle$q`).
fn prove_with<B: Block>(mut block: B, wrapper: &str, check: Check, flat: bool) {
    let Some(solver) = solver() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the formal checks: install yosys and z3 (apt-get install yosys z3)"
        );
        eprintln!("skipped the formal check {wrapper}: yosys-smtbmc or z3 is missing");
        return;
    };
    block.connect_all();
    // The yosys-smtbmc runs: what each shows, its arguments, and a hint for
    // when it fails.
    let (mode, runs) = match check {
        Bmc(n) => ("bmc", vec![("bounded model check", format!("-t {n}"), "")]),
        Induction(k) => (
            "induction",
            vec![
                ("base case", format!("-t {k}"), ""),
                (
                    "induction step",
                    format!("-i -t {k}"),
                    "\n(the trace may start in an unreachable state: a deeper BMC tells a real \
                     failure from an invariant the wrapper must add)",
                ),
            ],
        ),
        Cover(n) => ("cover", vec![("cover", format!("-c -t {n}"), "")]),
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("formal-{wrapper}-{mode}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("dut.v"), generate_verilog(&block)).unwrap();
    let properties = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("formal")
        .join(format!("{wrapper}.v"));
    let script = format!(
        "read_verilog dut.v; {}expose top/w:*$q; read_verilog -formal {}; prep -top formal_{wrapper}; \
         flatten; opt_clean; async2sync; dffunmap; write_smt2 -wires model.smt2",
        if flat {
            "hierarchy -top top; proc; flatten; "
        } else {
            ""
        },
        properties.display()
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "yosys could not build the model of {wrapper}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let start = std::time::Instant::now();
    for (what, args, hint) in runs {
        let out = Command::new("yosys-smtbmc")
            // --unroll: z3 4.8 stalls at step 0 on the parser's model in the
            // default (function-per-step) encoding, and is quick unrolled.
            .args(["-s", solver, "--unroll"])
            .args(args.split(' '))
            .args(["--dump-vcd", "trace.vcd", "model.smt2"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && log.contains("PASSED"),
            "{wrapper}: the {what} fails ({check:?}); trace in {}:\n{}{hint}",
            dir.join("trace.vcd").display(),
            log.lines()
                .filter(|l| ["ssert", "FAIL", "failed", "Unreached"]
                    .iter()
                    .any(|w| l.contains(w)))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    println!(
        "{wrapper}: {} ({check:?}, {solver}, {:.1} s)",
        match check {
            Bmc(_) => "every assertion holds to that depth",
            Induction(_) => "every assertion holds for ever",
            Cover(_) => "every cover is reached",
        },
        start.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Any stream of 8N1 frames (arbitrary bytes and stop levels, back to back
/// or with gaps; 4 clocks per bit): each frame's byte is delivered unchanged
/// two cycles after its stop bit, a low stop bit is flagged instead, and
/// nothing else is ever delivered or flagged. For ever: 3-induction (base
/// case to 3 cycles). Covers within 50 cycles (a frame is 40).
#[test]
fn uart_rx_delivers_every_frame_of_any_stream() {
    prove(UartRx::new(4), "uart_rx", Induction(3));
    prove(UartRx::new(4), "uart_rx", Cover(50));
}

/// With arbitrary `data` and `start` every cycle (4 clocks per bit): the
/// line idles high and carries each byte handed over as start bit, 8 data
/// bits LSB first and stop bit, each exactly 4 clocks; `ready` is high
/// exactly while idle and in the stop bit's last clock, stays high until a
/// start, and is low at most 39 cycles in a row (the rules the reply
/// checks assume). For ever: 1-induction. Covers within 45 cycles.
#[test]
fn uart_tx_sends_whole_frames_and_keeps_its_handshake() {
    prove(UartTx::new(4), "uart_tx", Induction(1));
    prove(UartTx::new(4), "uart_tx", Cover(45));
}

/// The framer never holds half a message past the idle timeout, a byte
/// beats the timeout, and messages follow bytes. The timeout is 8 cycles
/// here (the logic is the same for the board's 833 360); arbitrary inputs
/// every cycle. For ever: 1-induction. Covers within 12 cycles.
#[test]
fn framer_drops_half_messages_after_the_idle_timeout() {
    prove(MessageFramer::with_idle_cycles(8), "framer", Induction(1));
    prove(MessageFramer::with_idle_cycles(8), "framer", Cover(12));
}

/// The v1 parser never waits for ever in a loading state on a silent line,
/// and a START_BOARD pair after the quiet the protocol asks for always leads
/// to the new board, whatever came before. Idle timeout 8 cycles; bounded,
/// depth 34: up to 15 cycles of arbitrary input (enough to be loading a
/// board, inside a message, refused, or mid-abort), then the quiet and the
/// new board. Covers within 34 cycles.
#[test]
fn parser_never_hangs_and_start_board_always_starts_a_board() {
    prove(MessageParser::with_idle_cycles(8), "parser", Bmc(34));
    prove(MessageParser::with_idle_cycles(8), "parser", Cover(34));
}

/// The board session, the front end of both parsers, with any body parser
/// that keeps its contract and arbitrary inputs every cycle: a refusal or an
/// abort always leaves it waiting for START_BOARD, QUERY is answered only
/// between boards, and it never loads for longer than the idle timeout on a
/// silent line. Idle timeout 8 cycles; for ever: 3-induction. Covers within
/// 20 cycles.
#[test]
fn session_refusals_and_aborts_always_wait_for_start_board() {
    let session = || BoardSession::new(MessageFramer::with_idle_cycles(8), false, 32, Some(64));
    prove_with(session(), "session", Induction(3), true);
    prove_with(session(), "session", Cover(20), true);
}

/// The same for the v2 (clue) parser, with boards up to 64×64: bounded,
/// depth 34; covers within 34 cycles.
#[test]
fn clue_parser_never_hangs_and_start_board_always_starts_a_board() {
    prove(ClueParser::with_idle_cycles(8), "clue_parser", Bmc(34));
    prove(ClueParser::with_idle_cycles(8), "clue_parser", Cover(34));
    // Built for colour boards (protocol v3, up to 64 a side here): the
    // same properties.
    prove(
        ClueParser::with_colours(0, Some(8), 64, 4),
        "clue_parser",
        Bmc(34),
    );
}

/// An abort never splits a v1 reply message: with every input arbitrary
/// every cycle and a transmitter keeping UartTx's rules, the bytes handed
/// over come in whole messages (high byte, then the same message's low
/// byte, within the transmitter's wait + 2 cycles), the reply never ends
/// between them, and an abort lets only the message in flight out. For
/// ever: 1-induction. Covers within 50 cycles.
#[test]
fn dnf_reply_abort_never_splits_a_message() {
    prove_with(ReplyAssembler::default(), "dnf_reply", Induction(1), true);
    prove_with(ReplyAssembler::default(), "dnf_reply", Cover(50), true);
}

/// The same for the v2 (clue) reply. For ever: 1-induction. Covers within
/// 50 cycles.
#[test]
fn clue_reply_abort_never_splits_a_message() {
    prove_with(ClueReply::default(), "clue_reply", Induction(1), true);
    prove_with(ClueReply::default(), "clue_reply", Cover(50), true);
}
