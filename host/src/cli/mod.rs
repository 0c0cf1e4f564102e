//! The command line: `send`, `solve`, `info`, `encode`, `ports`, `census`, `sweep`.

mod send;
mod solve;

pub use send::{open_link, Link, SendArgs};
pub use solve::SolveArgs;

use crate::link::{self, DEFAULT_BAUD};
use crate::puzzle::{Format, Puzzle};
use crate::report::{self, exit, Report, Status};
use crate::software::{self, SearchOptions};
use crate::wire;
use clap::{Args, Parser, Subcommand, ValueEnum};
use nonogram_hdl::board_model::Engine;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

const EXIT_CODES: &str = "\
Exit codes:
  0  solved, with a unique solution (info: the puzzle fits one of the board's engines)
  1  error: bad input file, I/O, serial port, timeout, garbled reply, malformed stream
  2  no solution (a contradiction, or no solution found)
  3  several solutions, or the board stalled and the puzzle was not completed
  4  over the board's capacity: refused before sending (or by the board)
  5  the software search gave up (--max-time, or Ctrl-C) before it decided
  6  solved, but the file's goal is not the answer (a warning on stderr says why)

Puzzle files: .non (Steve Simpson's format, with nonogram-db's colours), webpbn XML
(any colours), Olšák's .g, TPDNE codes (one per line), board.txt (rows:/columns:
sections), or a picture of # (filled) and . (empty); the format is detected.
Colour puzzles are solved in software (`solve`); `send` takes them to the board's colour
engine (protocol v3, flash image 3), which today's flash does not hold yet.";

#[derive(Parser, Debug)]
#[command(
    name = "nonohost",
    version,
    about = "Send nonograms to the FPGA solver on an Alchitry Cu, or solve them in software",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Send a puzzle to the board and show its answer.
    #[command(after_help = EXIT_CODES)]
    Send(SendArgs),
    /// Solve a puzzle in software (line logic, then search; a long search goes to a SAT solver).
    #[command(after_help = EXIT_CODES)]
    Solve(SolveArgs),
    /// Size, options per line, bytes and time on the wire, and whether it fits the board.
    #[command(after_help = EXIT_CODES)]
    Info(InfoArgs),
    /// Write the exact byte stream `send` would send.
    #[command(after_help = EXIT_CODES)]
    Encode(EncodeArgs),
    /// List serial ports, marking the Alchitry Cu's UART.
    Ports(PortsArgs),
    /// Classify every grid of a size (5x5: 2^25) with the reference model and
    /// the software solver; compare with the published figures.
    #[command(
        after_help = "Exit codes:\n  0  every grid consistent, and for the whole 5x5 space both counts match the published figures\n  1  a mismatch, an inconsistency, or a usage error"
    )]
    Census(crate::census::Args),
    /// Random puzzles through the simulated gateware core and the reference
    /// model; every disagreement is written as a puzzle file.
    #[command(
        after_help = "Exit codes:\n  0  the core and the model agree on every puzzle\n  1  a disagreement, a puzzle that never fit the board, or a usage error"
    )]
    Sweep(crate::sweep::Args),
    /// The TAAI/TCGA tournament benchmark: random 25x25 puzzles through the
    /// board's model (cycles, so its time at 100 MHz) and the software
    /// solver (timed here), side by side.
    #[command(after_help = "Exit codes:\n  0  the benchmark ran\n  1  a usage error")]
    Tournament(crate::tournament::Args),
    /// Print a shell completion script (for example `nonohost completions
    /// bash > ~/.local/share/bash-completion/completions/nonohost`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; `nonohost man > nonohost.1; man ./nonohost.1`).
    Man,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    Auto,
    Dnf,
    Clues,
    Probing,
}

impl EngineArg {
    fn engine(self) -> Option<Engine> {
        match self {
            EngineArg::Auto => None,
            EngineArg::Dnf => Some(Engine::Dnf),
            EngineArg::Clues => Some(Engine::Clues),
            EngineArg::Probing => Some(Engine::Probing),
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Non,
    Board,
    Picture,
    Xml,
    /// Olšák's .g.
    G,
    /// This Puzzle Does Not Exist's codes.
    Tpdne,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Non => Format::Non,
            FormatArg::Board => Format::Board,
            FormatArg::Picture => Format::Picture,
            FormatArg::Xml => Format::Xml,
            FormatArg::G => Format::Olsak,
            FormatArg::Tpdne => Format::Tpdne,
        }
    }
}

#[derive(Args, Debug)]
pub struct PuzzleArgs {
    /// The puzzle file (.non, webpbn .xml, Olšák .g, TPDNE codes, board.txt, or a picture); `-` reads standard input.
    pub file: PathBuf,
    /// Read the file in this format instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
}

/// How long the host's search may run.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Give up the software search after this many seconds (exit code 5,
    /// with the cells fixed so far). Ctrl-C does the same at any time.
    #[arg(long, value_name = "SECONDS", value_parser = nonogram_sim::flags::positive_seconds)]
    pub max_time: Option<f64>,
    /// Any one solution will do (the tournaments' task): the search, the
    /// board's and the host's, stops at the first solution it finds, and
    /// does not check that it is the only one ("uniqueness_checked": false).
    #[arg(long)]
    pub first: bool,
}

impl SearchArgs {
    pub(crate) fn options(&self, progress: bool) -> SearchOptions {
        SearchOptions {
            max_time: self.max_time.map(Duration::from_secs_f64),
            interrupt: Some(ctrl_c()),
            progress,
            first: self.first,
        }
    }
}

/// The flag Ctrl-C sets while the host searches (SIGTERM and SIGHUP too,
/// as `timeout` and a closed terminal send): the search stops and the
/// partial grid is shown (exit code 5). At any other time they end the
/// program as usual (exit code 130).
fn ctrl_c() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if software::SEARCHING.load(Ordering::SeqCst) {
                set.store(true, Ordering::SeqCst);
            } else {
                std::process::exit(130);
            }
        });
        flag
    })
    .clone()
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Line rate for the send time, 300 to 12 000 000.
    #[arg(long, default_value_t = DEFAULT_BAUD, value_parser = clap::value_parser!(u32).range(300..=12_000_000))]
    pub baud: u32,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct EncodeArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Where to write the bytes ("-" for stdout).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Send every cell of every option (zeros too).
    #[arg(long)]
    pub every_cell: bool,
    /// Encode even if the puzzle is over the DNF engine's capacity.
    #[arg(long)]
    pub force: bool,
    /// The stream for this engine: `dnf` (options, protocol v1, the
    /// default) or `clues` (the clues, protocol v2).
    #[arg(long, value_enum, default_value_t = EncodeEngine::Dnf)]
    pub engine: EncodeEngine,
    /// `--engine clues`: the board's search budget in clock cycles (as for `send`).
    #[arg(long, value_name = "CYCLES", default_value_t = wire::DEFAULT_BUDGET_CYCLES,
          value_parser = clap::value_parser!(u64).range(0..=wire::MAX_BUDGET_CYCLES))]
    pub budget: u64,
    /// `--engine clues`: ask for first-solution mode.
    #[arg(long)]
    pub first: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodeEngine {
    Dnf,
    Clues,
}

#[derive(Args, Debug)]
pub struct PortsArgs {
    /// Print one JSON object (`ports`: the list).
    #[arg(long)]
    pub json: bool,
}

fn load(args: &PuzzleArgs) -> Result<Puzzle, crate::puzzle::ParseError> {
    Puzzle::load_as(&args.file, args.format.map(Format::from))
}

/// Prints a report: the JSON object on stdout with `--json`; else the text
/// (its pictures with their clues unless `clues` is false), on stderr when
/// it is a diagnostic (an error, a refusal, a stream the board found
/// malformed), as every other diagnostic.
pub(crate) fn print_report(report: &Report, json: bool, clues: bool) -> i32 {
    let diagnostic = matches!(
        report.status,
        Status::Error | Status::OverCapacity | Status::Malformed
    );
    if json {
        println!("{}", report.to_json());
    } else if report.puzzle.is_none() && report.error.is_some() {
        eprintln!("error: {}", report.error.as_deref().unwrap_or("unknown"));
    } else if diagnostic {
        eprint!("{}", report.to_text_with(clues));
    } else {
        print!("{}", report.to_text_with(clues));
    }
    if let Some(warning) = report.goal_warning() {
        eprintln!("{warning}");
    }
    report.exit_code()
}

/// A colour puzzle's report, as [`print_report`] prints a black-and-white
/// one: one JSON object, or the text (on stderr for refusals and errors,
/// drawn in 24-bit colour with `truecolour`); returns its exit code.
pub(crate) fn print_colour_report(
    report: &crate::colour::report::ColourReport,
    json: bool,
    truecolour: bool,
) -> i32 {
    let diagnostic = matches!(
        report.status,
        Status::Error | Status::OverCapacity | Status::Malformed
    );
    if json {
        println!("{}", report.to_json());
    } else if diagnostic {
        eprint!("{}", report.to_text(false));
    } else {
        print!("{}", report.to_text(truecolour));
    }
    if let Some(warning) = report.goal_warning() {
        eprintln!("{warning}");
    }
    report.exit_code()
}

/// A usage error as one line for `--json`: clap's whole message (what is
/// wrong, the argument's name, any tip) without its usage line and its
/// pointer to `--help`.
fn usage_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let parts: Vec<String> = text
        .split("\n\n")
        .filter(|p| !p.starts_with("Usage:") && !p.starts_with("For more information"))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect();
    let message = parts.join("; ");
    format!("usage: {}", message.trim_start_matches("error: "))
}

/// Runs the command line `args` (with the program name first) and returns the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) {
                return 0;
            }
            // Scripts that asked for JSON still get one object.
            if args.iter().any(|a| a == "--json") {
                println!(
                    "{}",
                    serde_json::json!({"status": "error", "error": usage_message(&e)})
                );
            }
            return exit::ERROR;
        }
    };
    match cli.command {
        Command::Send(a) => send::run(&a),
        Command::Solve(a) => solve::run(&a),
        Command::Info(a) => info(&a),
        Command::Encode(a) => encode(&a),
        Command::Ports(a) => ports(&a),
        Command::Census(a) => crate::census::run(&a),
        Command::Sweep(a) => crate::sweep::run(&a),
        Command::Tournament(a) => crate::tournament::run(&a),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "nonohost",
                &mut std::io::stdout(),
            );
            exit::SOLVED
        }
        Command::Man => {
            let page = clap_mangen::Man::new(<Cli as clap::CommandFactory>::command());
            match page.render(&mut std::io::stdout()) {
                Ok(()) => exit::SOLVED,
                Err(e) => report::usage_error(&e, false),
            }
        }
    }
}

/// A count for JSON: null when it saturated (more than 2^64 - 1).
fn count<S: serde::Serializer>(n: &u64, s: S) -> Result<S::Ok, S::Error> {
    if *n == u64::MAX {
        s.serialize_none()
    } else {
        s.serialize_u64(*n)
    }
}

fn counts<S: serde::Serializer>(v: &[u64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for n in v {
        seq.serialize_element(&(*n != u64::MAX).then_some(*n))?;
    }
    seq.end()
}

#[derive(serde::Serialize)]
struct InfoJson {
    file: String,
    format: String,
    title: Option<String>,
    width: usize,
    height: usize,
    /// Counts past 2^64 - 1 (saturated) are null, as are their times.
    #[serde(serialize_with = "counts")]
    row_options: Vec<u64>,
    #[serde(serialize_with = "counts")]
    column_options: Vec<u64>,
    #[serde(serialize_with = "count")]
    options: u64,
    board_entries: usize,
    #[serde(serialize_with = "count")]
    bytes: u64,
    #[serde(serialize_with = "count")]
    bytes_every_cell: u64,
    baud: u32,
    seconds: Option<f64>,
    seconds_every_cell: Option<f64>,
    fits: bool,
    capacity_error: Option<String>,
    /// The clue engine (protocol v2): bytes of the clue stream, their time
    /// at `baud`, and whether the puzzle fits.
    clue_bytes: u64,
    clue_seconds: f64,
    fits_clues: bool,
    clue_capacity_error: Option<String>,
}

fn info(a: &InfoArgs) -> i32 {
    let file = a.puzzle.file.display().to_string();
    let (puzzle, format) = match Puzzle::load_detected(&a.puzzle.file, a.puzzle.format.map(Format::from)) {
        Ok(p) => p,
        Err(e) => return print_report(&Report::error(&file, e), a.json, true),
    };
    let counts = wire::option_counts(&puzzle);
    let (row_options, column_options) = counts.split_at(puzzle.height());
    let fits = wire::check_capacity(&puzzle);
    let bytes = wire::wire_bytes(&puzzle, false);
    let bytes_every = wire::wire_bytes(&puzzle, true);
    let clue_bytes = wire::clue_bytes(&puzzle);
    let fits_clues = wire::check_clue_capacity(
        &puzzle,
        nonogram_hdl::clue::clue_model::MAX_SIDE,
        nonogram_hdl::clue::clue_model::CLUE_STORE_BLOCKS,
    );
    let j = InfoJson {
        file,
        format: format.name().into(),
        title: puzzle.title.clone(),
        width: puzzle.width(),
        height: puzzle.height(),
        row_options: row_options.to_vec(),
        column_options: column_options.to_vec(),
        options: wire::total_options(&puzzle),
        board_entries: nonogram_hdl::common::params::FIFO_ENTRIES,
        bytes,
        bytes_every_cell: bytes_every,
        baud: a.baud,
        seconds: (bytes != u64::MAX).then(|| wire::wire_seconds(bytes, a.baud)),
        seconds_every_cell: (bytes_every != u64::MAX).then(|| wire::wire_seconds(bytes_every, a.baud)),
        fits: fits.is_ok(),
        capacity_error: fits.as_ref().err().map(|e| e.message.clone()),
        clue_bytes,
        clue_seconds: wire::wire_seconds(clue_bytes, a.baud),
        fits_clues: fits_clues.is_ok(),
        clue_capacity_error: fits_clues.as_ref().err().map(|e| e.message.clone()),
    };
    if a.json {
        let mut v = serde_json::to_value(&j).unwrap_or_default();
        v["status"] = (if j.fits || j.fits_clues {
            "ok"
        } else {
            "over_capacity"
        })
        .into();
        v["error"] = serde_json::Value::Null;
        println!("{v}");
    } else {
        let list = |v: &[u64]| {
            v.iter()
                .map(|&n| wire::count_text(n))
                .collect::<Vec<_>>()
                .join(" ")
        };
        // A saturated byte count (2^64 or more) takes at least that long.
        let time = |bytes: u64, seconds: Option<f64>| {
            let seconds = seconds.unwrap_or_else(|| wire::wire_seconds(bytes, j.baud));
            let at_least = if bytes == u64::MAX { "more than " } else { "" };
            format!("{at_least}{}", report::human_seconds(seconds))
        };
        let title = j
            .title
            .as_deref()
            .map(|t| format!(" \"{t}\""))
            .unwrap_or_default();
        println!(
            "{}{title}: {} ({})",
            j.file,
            report::size_text(j.width, j.height),
            j.format
        );
        println!("options per row:    {}", list(&j.row_options));
        println!("options per column: {}", list(&j.column_options));
        println!(
            "options in all:     {} (the board holds {})",
            wire::count_text(j.options),
            j.board_entries
        );
        println!(
            "bytes on the wire:  {} (filled cells only), {} (--every-cell)",
            wire::count_text(j.bytes),
            wire::count_text(j.bytes_every_cell)
        );
        println!(
            "send time:          {} (filled cells only), {} (--every-cell) at {} baud",
            time(j.bytes, j.seconds),
            time(j.bytes_every_cell, j.seconds_every_cell),
            j.baud
        );
        match &j.capacity_error {
            None => println!("fits the board:     yes"),
            Some(e) => println!("fits the board:     no: {e}"),
        }
        println!(
            "clue engine (v2):   {} bytes, {} at {} baud; {}",
            j.clue_bytes,
            report::human_seconds(j.clue_seconds),
            j.baud,
            match &j.clue_capacity_error {
                None => "fits".to_string(),
                Some(e) => format!("does not fit: {e}"),
            }
        );
    }
    if j.fits || j.fits_clues {
        exit::SOLVED
    } else {
        exit::OVER_CAPACITY
    }
}

fn encode(a: &EncodeArgs) -> i32 {
    let file = a.puzzle.file.display().to_string();
    let puzzle = match load(&a.puzzle) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::ERROR;
        }
    };
    let bytes = match a.engine {
        EncodeEngine::Dnf => {
            if puzzle.width().max(puzzle.height()) > 64 {
                eprintln!(
                    "refused: {file}: protocol v1 describes lines of at most 64 cells, even with --force"
                );
                return exit::OVER_CAPACITY;
            }
            if let Err(over) = wire::check_capacity(&puzzle) {
                if !a.force {
                    eprintln!("refused: {over} (use --force to encode anyway, or --engine clues)");
                    return exit::OVER_CAPACITY;
                }
            }
            wire::encode(&puzzle, a.every_cell)
        }
        EncodeEngine::Clues => {
            use nonogram_hdl::clue::clue_model::{CLUE_STORE_BLOCKS, MAX_SIDE};
            if a.every_cell {
                eprintln!("warning: --every-cell is for the DNF engine's options; the clue stream has none");
            }
            // No --force here: past the clue engine's size the stream has no encoding.
            if let Err(over) = wire::check_clue_capacity(&puzzle, MAX_SIDE, CLUE_STORE_BLOCKS) {
                eprintln!("refused: {over}");
                return exit::OVER_CAPACITY;
            }
            wire::encode_clues(&puzzle, wire::budget_units(a.budget), a.first)
        }
    };
    let result = if a.output.as_os_str() == "-" {
        use std::io::Write;
        std::io::stdout().write_all(&bytes)
    } else {
        std::fs::write(&a.output, &bytes)
    };
    match result {
        Ok(()) => {
            eprintln!("{file}: wrote {} bytes to {}", bytes.len(), a.output.display());
            exit::SOLVED
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", a.output.display());
            exit::ERROR
        }
    }
}

fn ports(a: &PortsArgs) -> i32 {
    let entries = match link::list_ports() {
        Ok(e) => e,
        Err(e) => return report::usage_error(&e, a.json),
    };
    if a.json {
        let v: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                serde_json::json!({
                    "port": e.name,
                    "description": e.description,
                    "vid": e.usb.map(|u| u.0),
                    "pid": e.usb.map(|u| u.1),
                    "interface": e.usb.and_then(|u| u.2),
                    "alchitry_cu_uart": e.cu_uart,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"status": "ok", "error": null, "ports": v})
        );
    } else if entries.is_empty() {
        println!("no serial ports found");
    } else {
        let width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
        for e in &entries {
            let mark = if e.cu_uart { "  <- Alchitry Cu UART" } else { "" };
            println!("{:width$}  {}{mark}", e.name, e.description);
        }
    }
    exit::SOLVED
}
