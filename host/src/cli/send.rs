//! `nonohost send FILE...`: each puzzle to the board (or the simulated
//! board) in turn, on one link; a summary table when there is more than one.

use super::{print_colour_report, print_report, solve, EngineArg, FormatArg, SearchArgs};
use crate::link::{self, LinkConfig, DEFAULT_BAUD};
use crate::puzzle::{AnyPuzzle, Format, Puzzle};
use crate::report::{exit, Report, Status};
use crate::send;
use crate::send::SendOptions;
use crate::wire;
use clap::Args;
use nonogram_hdl::board_model::Engine;
use serialport::SerialPort;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct SendArgs {
    /// Puzzle files (.non, webpbn .xml, Olšák .g, board.txt, or a
    /// picture); `-` reads standard input. With more than one, each is sent
    /// in turn on the same link and a summary table follows.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Read the files in this format instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Serial port of the board (default: find the Alchitry Cu, USB 0403:6010 interface B).
    #[arg(long, value_name = "PATH")]
    pub port: Option<String>,
    /// Line rate (8N1), 300 to 12 000 000.
    #[arg(long, default_value_t = DEFAULT_BAUD, value_parser = clap::value_parser!(u32).range(300..=12_000_000))]
    pub baud: u32,
    /// Use the simulated board instead of a real one. It runs the core's
    /// Verilog under Verilator when verilator is installed (built once, in
    /// seconds, then cached), else RustHDL's simulation;
    /// NONOGRAM_SIM_BACKEND=rusthdl|verilator chooses.
    #[arg(long, conflicts_with = "port")]
    pub sim: bool,
    /// The board's engine. `auto` asks the board what its flash holds
    /// (QUERY) and takes the DNF engine (protocol v1) when the puzzle fits
    /// it and line logic decides it; else the probing engine (protocol v2,
    /// boards up to 32×32, flash image 2) when the flash holds it and the
    /// puzzle fits it; else the clue engine (v2, up to 64×64),
    /// which searches where line logic stalls. A board flashed without the
    /// engine asked for says so.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
    /// Send every cell of every option (zeros too), as the original host did.
    #[arg(long)]
    pub every_cell: bool,
    /// Seconds to wait for the reply after the last byte (default: scales with the puzzle and baud).
    #[arg(long, value_name = "SECONDS", value_parser = nonogram_sim::flags::positive_seconds)]
    pub timeout: Option<f64>,
    /// If the board stalls or gives up, do not finish the puzzle in software.
    #[arg(long)]
    pub no_finish: bool,
    /// The clue engine's search budget, in clock cycles (rounded up to a
    /// multiple of 2^20; 10 485 760 is 105 ms at 100 MHz). When line logic
    /// stalls, the board searches until it has proved its solution unique
    /// or found a second one; past the budget it gives up and the host
    /// finishes. 0: line logic alone.
    #[arg(long, value_name = "CYCLES", default_value_t = wire::DEFAULT_BUDGET_CYCLES,
          value_parser = clap::value_parser!(u64).range(0..=wire::MAX_BUDGET_CYCLES))]
    pub budget: u64,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object instead of the picture (one line per puzzle).
    #[arg(long)]
    pub json: bool,
    /// Draw the answer without its clues (on a terminal, guide lines part
    /// every 5 cells either way).
    #[arg(long)]
    pub no_clues: bool,
}

/// A port to the board, and the simulated board behind it with `--sim`.
pub struct Link {
    pub port: Box<dyn SerialPort>,
    pub sim: Option<nonogram_sim::SimBoard>,
}

/// Opens the link `send` talks over: `--sim` (a board with `engine`),
/// `--port PATH`, or the Alchitry Cu found by USB id.
pub fn open_link(args: &SendArgs, engine: Engine) -> anyhow::Result<Link> {
    if args.sim {
        let sim = nonogram_sim::SimBoard::spawn_engine(engine, nonogram_sim::Faults::default())
            .map_err(|e| anyhow::anyhow!("cannot start the simulated board: {e}"))?;
        // The simulated board talks through a pseudo-terminal, with the same serial-port code.
        let port = link::open_port(sim.path(), args.baud)?;
        return Ok(Link { port, sim: Some(sim) });
    }
    let path = match &args.port {
        Some(p) => p.clone(),
        None => link::find_board_port()?,
    };
    Ok(Link {
        port: link::open_port(&path, args.baud)?,
        sim: None,
    })
}

/// `send`: every file in turn. The exit code is the highest of the
/// puzzles' codes.
pub fn run(a: &SendArgs) -> i32 {
    let format = a.format.map(Format::from);
    let mut link: Option<Link> = None;
    let mut worst = exit::SOLVED;
    let mut rows = Vec::new();
    for (n, path) in a.files.iter().enumerate() {
        let file = path.display().to_string();
        let start = Instant::now();
        let mut link_failed = false;
        let solved = match crate::puzzle::load_any(path, format) {
            Ok((puzzles, _)) => match puzzles.into_iter().next() {
                Some(AnyPuzzle::Mono(puzzle)) => {
                    let report = send_one(a, &puzzle, &mut link, &mut link_failed);
                    worst = worst.max(print_report(&report, a.json, !a.no_clues));
                    solve::Solved::Mono(report)
                }
                Some(AnyPuzzle::Colour(p)) => {
                    let report = send_colour(a, &p, &mut link, &mut link_failed);
                    let truecolour = crate::colour::picture::terminal_has_truecolour();
                    worst = worst.max(print_colour_report(&report, a.json, truecolour));
                    solve::Solved::Colour(report)
                }
                None => {
                    let report = Report::error(&file, format!("{file}: no puzzle in the file"));
                    worst = worst.max(print_report(&report, a.json, !a.no_clues));
                    solve::Solved::Mono(report)
                }
            },
            Err(e) => {
                let report = Report::error(&file, e);
                worst = worst.max(print_report(&report, a.json, !a.no_clues));
                solve::Solved::Mono(report)
            }
        };
        rows.push(solved.row(start.elapsed().as_secs_f64()));
        // No port, no board: the rest would only fail the same way.
        if link_failed && n + 1 < a.files.len() {
            let rest = (a.files.len() - n - 1) as u64;
            eprintln!(
                "error: no link to a board; {} not sent",
                crate::report::plural(rest, "other file was", "other files were")
            );
            break;
        }
    }
    if let Some(sim) = link.as_ref().and_then(|l| l.sim.as_ref()) {
        let stats = sim.stats();
        if !a.json {
            println!(
                "simulated board ({}): {} clock cycles ({} per UART bit) at {:.0} cycles/s",
                sim.backend().name(),
                stats.cycles(),
                nonogram_sim::SIM_CLOCKS_PER_BIT,
                stats.cycles_per_second()
            );
        }
    }
    if rows.len() > 1 && !a.json {
        print!("{}", solve::table(&rows));
    }
    worst
}

/// How `send` runs on `link`, from the flags.
fn send_options(a: &SendArgs, link: &Link) -> SendOptions {
    let mut config = LinkConfig::new(a.baud);
    config.progress = !a.quiet && !a.json && std::io::stderr().is_terminal();
    config.reply_timeout = a.timeout.map(|s| Duration::from_secs_f64(s.max(0.0)));
    let mut options = SendOptions {
        every_cell: a.every_cell,
        no_finish: a.no_finish,
        engine: a.engine.engine(),
        budget: wire::budget_units(a.budget),
        search: a.search.options(config.progress),
        link: config,
    };
    if simulated(a, link) {
        // The simulated board shows the core a silent line only after a
        // longer real-time quiet than a real line needs.
        options.link.idle_before = options.link.idle_before.max(2 * nonogram_sim::QUIET_BEFORE_IDLE);
        // Every simulated board answers QUERY: silence means it is stopped.
        options.link.answers_query = true;
    }
    options
}

/// Whether the board is simulated: a pseudo-terminal is the simulated
/// board's, ours (--sim) or a separate nonosim's. It swallows the bytes at
/// once and the simulation may run slower than the wire.
fn simulated(a: &SendArgs, link: &Link) -> bool {
    let pty = a
        .port
        .as_deref()
        .is_some_and(|p| std::fs::canonicalize(p).is_ok_and(|p| p.starts_with("/dev/pts")));
    link.sim.is_some() || pty
}

/// Opens the link for the first puzzle that needs it (`start_engine`: the
/// image the simulated board starts in).
fn ensure_link<'a>(
    a: &SendArgs,
    link: &'a mut Option<Link>,
    link_failed: &mut bool,
    start_engine: Engine,
) -> Result<&'a Link, String> {
    if link.is_none() {
        match open_link(a, start_engine) {
            Ok(l) => *link = Some(l),
            Err(e) => {
                *link_failed = true;
                return Err(e.to_string());
            }
        }
    }
    Ok(link.as_ref().expect("the link was opened above"))
}

/// Sends one colour puzzle to the board's colour engine (protocol v3).
/// No flash holds that image yet, so a board refuses it as over capacity
/// after its QUERY, naming what the flash holds.
fn send_colour(
    a: &SendArgs,
    puzzle: &crate::colour::ColourPuzzle,
    link: &mut Option<Link>,
    link_failed: &mut bool,
) -> crate::colour::report::ColourReport {
    use crate::colour::report::ColourReport;
    use crate::colour::send;
    let blank = || ColourReport {
        engine: Some(Engine::Colour.name().into()),
        ..ColourReport::blank(puzzle)
    };
    let refuse = |status: Status, message: String| ColourReport {
        status,
        message: Some(message),
        ..blank()
    };
    if !matches!(a.engine, EngineArg::Auto) {
        return refuse(
            Status::OverCapacity,
            format!(
                "--engine {}: a colour puzzle goes to the colour engine; leave --engine out",
                a.engine.engine().map_or("auto", Engine::name)
            ),
        );
    }
    // Refuse before touching the port what the colour engine cannot take.
    if let Err(why) = send::check_capacity(puzzle) {
        return refuse(
            Status::OverCapacity,
            format!("{why}; `nonohost solve` solves colour puzzles in software"),
        );
    }
    let link = match ensure_link(a, link, link_failed, Engine::Dnf) {
        Ok(l) => l,
        Err(e) => {
            return ColourReport {
                error: Some(e),
                ..blank()
            }
        }
    };
    let port = match link.port.try_clone() {
        Ok(p) => p,
        Err(e) => {
            return ColourReport {
                error: Some(e.to_string()),
                ..blank()
            }
        }
    };
    send::send_colour(puzzle, port, &send_options(a, link))
}

/// Sends one puzzle on `link`, opening it first if this is the first
/// puzzle; returns its report.
fn send_one(a: &SendArgs, puzzle: &Puzzle, link: &mut Option<Link>, link_failed: &mut bool) -> Report {
    // The engine the host will choose on a board with every image (the
    // simulated board's flash, and the real one's): for the simulation's
    // reply time. The simulated board starts in the image of the engine
    // asked for, else in image 0 (DNF) as a real board powers up.
    let sim_engine = send::choose_engine(
        puzzle,
        a.engine.engine(),
        Engine::Dnf,
        nonogram_hdl::link::protocol::image::FLASH,
    );
    // (A real board powers up in image 0; the simulated one starts in the
    // image asked for when its flash holds it.)
    let start_engine = a.engine.engine().filter(|e| e.in_flash()).unwrap_or(Engine::Dnf);
    // Refuse before touching the port what no board could take.
    let dnf_fit = wire::check_capacity(puzzle);
    let clue_fit = wire::check_clue_capacity(
        puzzle,
        nonogram_hdl::clue::clue_model::MAX_SIDE,
        nonogram_hdl::clue::clue_model::CLUE_STORE_BLOCKS,
    );
    let clue_takes_it = clue_fit.is_ok();
    let refusal = match (a.engine, dnf_fit, clue_fit) {
        (EngineArg::Dnf, Err(over), _) | (EngineArg::Clues, _, Err(over)) => Some(over),
        // (The clue engine's limits, at the probing engine's side.)
        (EngineArg::Probing, _, _) => wire::check_clue_capacity(
            puzzle,
            Engine::Probing.clue_side(),
            nonogram_hdl::clue::clue_model::CLUE_STORE_BLOCKS,
        )
        .err(),
        (EngineArg::Auto, Err(_), Err(over)) => Some(over),
        _ => None,
    };
    if let Some(over) = refusal {
        let mut r = Report::new(puzzle, Status::OverCapacity);
        // Say what would take it instead.
        let hint = match a.engine {
            EngineArg::Dnf if clue_takes_it => "; the clue engine takes it: --engine clues (or auto)",
            _ => "; `nonohost solve` solves it in software",
        };
        r.message = Some(over.message + hint);
        return r;
    }
    let link = match ensure_link(a, link, link_failed, start_engine) {
        Ok(l) => l,
        Err(e) => return Report::new(puzzle, Status::Error).with_error(e),
    };
    // Each puzzle gets its own handle on the one port (a batch reuses it).
    let port = match link.port.try_clone() {
        Ok(p) => p,
        Err(e) => return Report::new(puzzle, Status::Error).with_error(e),
    };
    let mut options = send_options(a, link);
    if simulated(a, link) {
        // The host writes into the pseudo-terminal faster than the simulation
        // consumes it: allow for the simulation's pace, not the wire's.
        if options.link.reply_timeout.is_none() {
            let (bytes, solve_cycles) = match sim_engine {
                Engine::Dnf => (wire::wire_bytes(puzzle, a.every_cell), 0),
                clues => {
                    use nonogram_hdl::clue::clue_model::{run, Mode};
                    let mode = Mode {
                        budget: options.budget,
                        first: options.search.first,
                        probe: clues == Engine::Probing,
                    };
                    (
                        wire::clue_bytes(puzzle),
                        run(&puzzle.rows, &puzzle.columns, mode).cycles,
                    )
                }
            };
            options.link.reply_timeout = Some(nonogram_sim::reply_allowance(bytes, solve_cycles));
        }
    }
    let report = send::send_board(puzzle, port, &options);
    if a.every_cell && report.engine.as_deref() == Some(Engine::Clues.name()) {
        eprintln!(
            "warning: --every-cell applies to the DNF engine's options (protocol v1); \
             the clue engine took the clues, so it was ignored"
        );
    }
    report
}
