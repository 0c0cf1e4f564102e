//! Formal properties of the gateware, proved by bounded model checking with
//! yosys-smtbmc on the Verilog RustHDL emits: each block's Verilog is read
//! together with a small wrapper in `hdl/formal/` that drives it and holds
//! the assertions. A counterexample trace is written as a VCD, and its path
//! printed.
//!
//! Without yosys-smtbmc and z3 the checks are skipped with a notice, unless
//! `CI` is set (CI installs them). (Debian's boolector 3 speaks an SMT-LIB
//! dialect yosys 0.23's smtbmc does not, so z3 is the one solver used.)

use nonogram_hdl::clue::parser::ClueParser;
use nonogram_hdl::dnf::parser::MessageParser;
use nonogram_hdl::link::framer::MessageFramer;
use nonogram_hdl::link::uart_rx::UartRx;
use rust_hdl::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The SMT solver yosys-smtbmc drives, if it and the solver are installed.
fn solver() -> Option<&'static str> {
    let runs = |tool: &str, arg: &str| Command::new(tool).arg(arg).output().is_ok();
    (runs("yosys-smtbmc", "-h") && runs("z3", "--version")).then_some("z3")
}

/// Proves the wrapper `hdl/formal/{wrapper}.v` around `block`'s Verilog for
/// `depth` cycles from power-up; panics with the counterexample's VCD.
fn prove<B: Block>(mut block: B, wrapper: &str, depth: u32) {
    let Some(solver) = solver() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the formal checks: install yosys and z3 (apt-get install yosys z3)"
        );
        eprintln!("skipped the formal check {wrapper}: yosys-smtbmc or z3 is missing");
        return;
    };
    block.connect_all();
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("formal-{wrapper}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("dut.v"), generate_verilog(&block)).unwrap();
    let properties = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("formal")
        .join(format!("{wrapper}.v"));
    let script = format!(
        "read_verilog dut.v; read_verilog -formal {}; prep -top formal_{wrapper}; \
         flatten; opt_clean; async2sync; dffunmap; write_smt2 -wires model.smt2",
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
    let out = Command::new("yosys-smtbmc")
        // --unroll: z3 4.8 stalls at step 0 on the parser's model in the
        // default (function-per-step) encoding, and is quick unrolled.
        .args(["-s", solver, "--unroll", "-t", &depth.to_string()])
        .args(["--dump-vcd", "counterexample.vcd", "model.smt2"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && log.contains("PASSED"),
        "{wrapper}: a property fails within {depth} cycles; trace in {}:\n{}",
        dir.join("counterexample.vcd").display(),
        log.lines()
            .filter(|l| l.contains("ssert") || l.contains("FAIL"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    println!(
        "{wrapper}: every property holds to {depth} cycles ({solver}, {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A byte framed mid-bit is delivered unchanged; a low stop bit is flagged
/// and drops the byte. Depth 90: the latest frame starts at cycle 31 and is
/// judged 48 cycles later.
#[test]
fn uart_rx_delivers_bytes_and_flags_framing_errors() {
    prove(UartRx::new(4), "uart_rx", 90);
}

/// The framer never holds half a message past the idle timeout, a byte
/// beats the timeout, and messages follow bytes. The timeout is 8 cycles
/// here (the logic is the same for the board's 833 360); depth 40, five
/// timeouts, from power-up with arbitrary inputs every cycle.
#[test]
fn framer_drops_half_messages_after_the_idle_timeout() {
    prove(MessageFramer::with_idle_cycles(8), "framer", 40);
}

/// The v1 parser never waits for ever in a loading state on a silent line,
/// and a START_BOARD pair after the quiet the protocol asks for always leads
/// to the new board, whatever came before. Idle timeout 8 cycles; depth 34:
/// up to 15 cycles of arbitrary input (enough to be loading a board, inside
/// a message, refused, or mid-abort), then the quiet and the new board.
#[test]
fn parser_never_hangs_and_start_board_always_starts_a_board() {
    prove(MessageParser::with_idle_cycles(8), "parser", 34);
}

/// The same for the v2 (clue) parser, with boards up to 64×64.
#[test]
fn clue_parser_never_hangs_and_start_board_always_starts_a_board() {
    prove(ClueParser::with_idle_cycles(8), "clue_parser", 34);
}
