//! `nonosim`: serves the simulated board on a pseudo-terminal and prints its
//! path, for any serial client (`nonohost send --port PATH board.txt`).

use clap::Parser;
use nonogram_sim::{flags, Backend, Engine, Faults, SimBoard, SIM_CLOCKS_PER_BIT};
use std::time::Duration;

/// The simulated Alchitry Cu nonogram solver on a pseudo-terminal.
#[derive(Parser)]
#[command(
    version,
    after_help = "The baud rate set by the client does not matter: the simulated line runs at the simulation's own pace."
)]
struct Args {
    /// The flash image the board starts in: `dnf` (image 0, protocol v1,
    /// the one a real board powers up in), `clues` (image 1, protocol v2,
    /// up to 64×64) or `probing` (image 2, protocol v2 with probing, up to
    /// 32×32), if the flash holds it. Like the real flash the board holds
    /// the images of the build's flash (`image::FLASH`: images 0, 1 and 2),
    /// and a SWITCH message reboots it into another.
    #[arg(long, default_value = "dnf", value_parser = ["dnf", "clues", "probing"])]
    engine: String,
    /// What steps the core: `verilator` (its emitted Verilog, built once and
    /// cached; millions of cycles/s), `rusthdl` (RustHDL's simulation, about
    /// 100 k cycles/s), or `auto`: Verilator when it is installed (or as
    /// NONOGRAM_SIM_BACKEND says), RustHDL otherwise and with --vcd.
    #[arg(long, default_value = "auto", value_parser = ["auto", "verilator", "rusthdl"])]
    backend: String,
    /// Print the simulation's figures (cycles, cycles/s, bytes) every this
    /// many seconds, when they changed.
    #[arg(long, value_name = "SECONDS", value_parser = flags::positive_seconds)]
    stats: Option<f64>,
    /// Fault injection: drop every N-th byte from the host.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    drop_every: Option<u64>,
    /// Fault injection: corrupt every N-th byte from the host.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    corrupt_every: Option<u64>,
    /// Fault injection: the host's bytes arrive this fraction slow (0.03 = 3 %; negative = fast).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, value_parser = flags::rate_error)]
    rate_error: f64,
    /// Fault injection: never answer.
    #[arg(long)]
    silent: bool,
    /// Fault injection: hold each reply byte back this many milliseconds.
    #[arg(long, default_value_t = 0, value_name = "MS", value_parser = clap::value_parser!(u64).range(..=60_000))]
    reply_delay_ms: u64,
    /// Record every simulated cycle of the core into this VCD file, for
    /// GTKWave (signal names follow the gateware's blocks; about a kilobyte
    /// a busy cycle).
    #[arg(long, value_name = "FILE")]
    vcd: Option<std::path::PathBuf>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let faults = Faults {
        drop_every: args.drop_every,
        corrupt_every: args.corrupt_every,
        rate_error: args.rate_error,
        silent: args.silent,
        reply_delay: Duration::from_millis(args.reply_delay_ms),
    };
    let engine = match args.engine.as_str() {
        "clues" => Engine::Clues,
        "probing" => Engine::Probing,
        _ => Engine::Dnf,
    };
    if let Some(path) = &args.vcd {
        // Fail now, with the path, rather than in the board's thread.
        std::fs::File::create(path)
            .map_err(|e| anyhow::anyhow!("cannot write the waveform {}: {e}", path.display()))?;
    }
    if args.vcd.is_some() && args.backend == "verilator" {
        anyhow::bail!("--vcd records RustHDL's simulation: it cannot go with --backend verilator");
    }
    let backend = match args.vcd {
        Some(_) => Backend::RustHdl,
        None => Backend::from_flag(&args.backend),
    };
    let board = SimBoard::spawn_on(backend, engine, faults, args.vcd.clone())?;
    if let Some(path) = &args.vcd {
        eprintln!(
            "recording every cycle into {}: the board runs about 25 times slower, so give the \
             client a long reply timeout (nonohost send --timeout 600)",
            path.display()
        );
    }
    println!("{}", board.path());
    eprintln!(
        "simulated board (flash: DNF image 0, clue image 1; starting in the {} engine's; stepped by {}) on {} ({SIM_CLOCKS_PER_BIT} clocks per bit); Ctrl-C stops it",
        args.engine,
        board.backend().name(),
        board.path()
    );
    let period = Duration::from_secs_f64(args.stats.unwrap_or(3600.0));
    let mut last = std::time::Instant::now();
    let mut shown = None;
    loop {
        std::thread::sleep(Duration::from_millis(200));
        if !board.running() {
            // The board's thread is gone: say why and stop, rather than serve a dead board.
            return match board.stop() {
                Err(e) => Err(anyhow::anyhow!("the simulated board stopped: {e}")),
                Ok(()) => Err(anyhow::anyhow!("the simulated board stopped")),
            };
        }
        if args.stats.is_some() && last.elapsed() >= period {
            last = std::time::Instant::now();
            let s = board.stats();
            // An idle board's figures do not change: say them once.
            let now = (s.cycles(), s.bytes_in(), s.bytes_out());
            if shown == Some(now) {
                continue;
            }
            shown = Some(now);
            eprintln!(
                "{} cycles, {:.0} cycles/s while stepping, {} bytes in, {} bytes out",
                s.cycles(),
                s.cycles_per_second(),
                s.bytes_in(),
                s.bytes_out()
            );
        }
    }
}
