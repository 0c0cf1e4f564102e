//! `nonogram-bsp`: build the Alchitry Cu bitstream of the nonogram solver,
//! and program the board.
//!
//! ```text
//! cargo run --release -p nonogram-bsp -- build [--engine dnf|clues|probing|colour] [--baud 9600] [--out DIR] [--seed N] [--seeds N]
//! cargo run --release -p nonogram-bsp -- flash [--bin PATH]
//! cargo run --release -p nonogram-bsp -- verilog [--engine dnf|clues|probing|colour] [--baud 9600] [--out DIR]
//! ```
//!
//! The engines do not fit the HX8K together, so each is a bitstream of its
//! own, and `build` packs them into one flash image (`build/flash.bin`,
//! icemulti): image 0, the one the board powers up in, is the DNF engine
//! (protocol v1, in build/dnf/), image 1 the clue engine (protocol v2,
//! boards up to 64×64, in build/clues/). A SWITCH message reboots the board
//! into the other (SB_WARMBOOT); `build/report.json` lists the images.
//!
//! The option FIFO's size is fixed when the gateware is compiled: set
//! `NONOGRAM_FIFO_ADDR_BITS` (log2 of its entries, default 11) in the
//! environment of `cargo run`.

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use nonogram_bsp::flow::{self, BuildOptions, HX8K_BRAMS, HX8K_LCS};
use nonogram_bsp::pcf::{check_pcf, compare_pads, parse_pcf, top_ports, PCF_PATH};
use nonogram_bsp::seed_record::{Placement, SeedRecord};
use nonogram_bsp::top::{clocks_per_bit, declared_pcf, top_verilog, Engine};
use nonogram_hdl::common::params::{BOARD_CLOCK_HZ, FIFO_ADDR_BITS, FIFO_ENTRIES};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// The clock the design must reach: the Cu's oscillator.
const BOARD_MHZ: f64 = BOARD_CLOCK_HZ as f64 / 1e6;

#[derive(Parser)]
#[command(
    name = "nonogram-bsp",
    about = "Alchitry Cu bitstream of the nonogram solver: build it, flash it",
    after_help = "The option FIFO holds 2^NONOGRAM_FIFO_ADDR_BITS options (default 2^11 = 2048, \
                  16 of the 32 block RAMs); set that variable when running cargo to change it, \
                  e.g. NONOGRAM_FIFO_ADDR_BITS=12 cargo run --release -p nonogram-bsp -- build"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

/// Which engine the bitstream holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    /// The DNF engine: stored options, protocol v1 (the mission's design).
    Dnf,
    /// The clue engine: boards up to 64×64 from their clues, protocol v2.
    Clues,
    /// The clue engine with probing, boards up to 32×32, protocol v2.
    Probing,
    /// The colour clue engine, boards up to 32×32 with 4 inks, protocol v3.
    Colour,
}

impl EngineArg {
    fn engine(self) -> Engine {
        match self {
            EngineArg::Dnf => Engine::Dnf,
            EngineArg::Clues => Engine::Clues,
            EngineArg::Probing => Engine::Probing,
            EngineArg::Colour => Engine::Colour,
        }
    }

    /// Its image's directory under the build directory.
    fn dir(self) -> &'static str {
        self.engine().name()
    }

    /// The images of the flash (`image::FLASH`), in image order (image 0
    /// first).
    fn flash() -> Vec<EngineArg> {
        let mut images: Vec<Engine> = Engine::ALL.into_iter().filter(|e| e.in_flash()).collect();
        images.sort_by_key(|e| e.image());
        images.into_iter().map(EngineArg::from).collect()
    }
}

impl From<Engine> for EngineArg {
    fn from(engine: Engine) -> EngineArg {
        match engine {
            Engine::Dnf => EngineArg::Dnf,
            Engine::Clues => EngineArg::Clues,
            Engine::Probing => EngineArg::Probing,
            Engine::Colour => EngineArg::Colour,
        }
    }
}

fn default_build_dir() -> PathBuf {
    workspace_root().join("build")
}

#[derive(Subcommand)]
enum Cmd {
    /// For every engine: emit the Verilog, synthesise (yosys), place and
    /// route at 100 MHz (nextpnr-ice40), pack the bitstream (icepack); then
    /// pack them into one flash image (icemulti) and report.
    Build {
        /// Build this engine's image only (no flash image).
        #[arg(long, value_enum)]
        engine: Option<EngineArg>,
        /// UART baud rate of the board (sets the clocks per bit).
        #[arg(long, default_value_t = 9600)]
        baud: u32,
        /// Output directory [default: build/ at the workspace root]; each
        /// image is built in a directory of its own in it (dnf/, clues/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// nextpnr's placer seed (try another when timing is just missed).
        #[arg(long)]
        seed: Option<u64>,
        /// Then place and route the same netlist again with nextpnr seeds
        /// 1..=N (in seed-N/ under the output directory, one run per core
        /// at a time), report each fmax, their minimum and median, and fail
        /// if any seed misses 100 MHz.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100))]
        seeds: Option<u64>,
        /// With --seeds: take an image's seeds from FILE when FILE records
        /// them for its very netlist (top.json), pin constraints, clock and
        /// nextpnr, and its default placement gives the fmax recorded there
        /// (nextpnr is deterministic: placing them again would measure
        /// nothing new); else place them, and record them in FILE when all
        /// meet 100 MHz. CI uses bsp/seeds.json.
        #[arg(long, value_name = "FILE")]
        seed_record: Option<PathBuf>,
        /// Pin constraints [default: constraints/alchitry_cu.pcf].
        #[arg(long)]
        pcf: Option<PathBuf>,
    },
    /// Program the board's flash with iceprog.
    Flash {
        /// Flash image or bitstream [default: build/flash.bin at the workspace root].
        #[arg(long)]
        bin: Option<PathBuf>,
    },
    /// Only emit the top level's Verilog (top.v), checked against the pcf.
    Verilog {
        #[arg(long, value_enum, default_value_t = EngineArg::Dnf)]
        engine: EngineArg,
        #[arg(long, default_value_t = 9600)]
        baud: u32,
        /// Output directory [default: build/ENGINE/ at the workspace root].
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long)]
        pcf: Option<PathBuf>,
    },
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bsp lives in the workspace")
        .to_path_buf()
}

fn default_pcf() -> PathBuf {
    workspace_root().join(PCF_PATH)
}

/// Clocks per bit for `baud`, refused when the rate is off by more than 1 %
/// or the divisor is out of the UART's range.
fn divisor(baud: u32) -> Result<u32> {
    if baud == 0 {
        bail!("--baud must be positive");
    }
    let cpb = clocks_per_bit(baud);
    if !(16..=65535).contains(&cpb) {
        bail!(
            "--baud {baud} gives {cpb} clocks per bit at 100 MHz; the UART takes 16..=65535 \
             (about 1526 to 6 250 000 baud)"
        );
    }
    let actual = BOARD_CLOCK_HZ as f64 / cpb as f64;
    let error = (actual - baud as f64).abs() / baud as f64;
    if error > 0.01 {
        bail!(
            "--baud {baud}: the nearest rate 100 MHz divides to is {actual:.0} baud ({:.1} % off)",
            error * 100.0
        );
    }
    Ok(cpb)
}

/// Emits and checks the Verilog; writes `out/top.v`; returns it.
fn emit(engine: EngineArg, baud: u32, out: &Path, pcf_path: &Path, say: &dyn Fn(&str)) -> Result<String> {
    let cpb = divisor(baud)?;
    match engine {
        EngineArg::Dnf => say(&format!(
            "top level: DNF engine, {baud} baud ({cpb} clocks per bit), option FIFO 2^{FIFO_ADDR_BITS} = {FIFO_ENTRIES} entries"
        )),
        EngineArg::Clues | EngineArg::Probing | EngineArg::Colour => {
            let side = engine.engine().clue_side();
            say(&format!(
                "top level: {} engine, {baud} baud ({cpb} clocks per bit), boards up to {side}x{side}, {} blocks",
                engine.engine().name(),
                1 << nonogram_hdl::clue::clue_store::CLUE_STORE_BITS
            ))
        }
    }
    let start = Instant::now();
    let verilog = top_verilog(cpb, engine.engine()).map_err(|e| anyhow!(e))?;
    say(&format!(
        "  Verilog emitted by RustHDL in {:.1} s ({} lines)",
        start.elapsed().as_secs_f64(),
        verilog.lines().count()
    ));
    // The pins, before any tool runs.
    let pcf_text = std::fs::read_to_string(pcf_path)
        .with_context(|| format!("cannot read the pin constraints {}", pcf_path.display()))?;
    let pcf = parse_pcf(&pcf_text).map_err(|e| anyhow!("{}: {e}", pcf_path.display()))?;
    let ports = top_ports(&verilog).map_err(|e| anyhow!(e))?;
    let declared = parse_pcf(&declared_pcf()).map_err(|e| anyhow!(e.0))?;
    let mut problems = check_pcf(&pcf, &ports);
    problems.extend(compare_pads(&pcf, &declared));
    if !problems.is_empty() {
        bail!(
            "{} does not match the top level's ports:\n  {}",
            pcf_path.display(),
            problems.join("\n  ")
        );
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    std::fs::write(out.join("top.v"), &verilog).context("cannot write top.v")?;
    Ok(verilog)
}

/// Places and routes the build's netlist with seeds 1..=n; reports each
/// fmax, the minimum and the median; fails if any seed misses the board's
/// clock, naming `image`, the seeds and their figures. (The bitstream
/// itself, the default placement, must meet it too; the seeds say the
/// design does not meet it by one lucky placement.)
fn sweep(image: &str, opts: &BuildOptions, n: u64, say: &(dyn Fn(&str) + Sync)) -> Result<Vec<f64>> {
    say(&format!("nextpnr-ice40 seeds 1..={n}, the same netlist:"));
    let seeds: Vec<u64> = (1..=n).collect();
    let reports = flow::sweep_seeds(opts, &seeds, |line| say(line))?;
    let by_seed: Vec<f64> = reports.iter().map(|(_, r)| r.fmax_mhz).collect();
    let mut fmax = by_seed.clone();
    fmax.sort_by(f64::total_cmp);
    let median = if fmax.len() % 2 == 1 {
        fmax[fmax.len() / 2]
    } else {
        (fmax[fmax.len() / 2 - 1] + fmax[fmax.len() / 2]) / 2.0
    };
    say(&format!(
        "  fmax over {n} seeds: minimum {:.2} MHz, median {median:.2} MHz",
        fmax[0]
    ));
    flow::check_every_seed(image, &reports, &opts.out_dir)?;
    Ok(by_seed)
}

/// The seeds of an image whose default placement gave `default_fmax`: from
/// `record` when it holds them for this very placement (see
/// `seed_record`), else placed by [`sweep`] and, when all meet the clock,
/// recorded there.
fn seeds_of(
    image: &str,
    opts: &BuildOptions,
    default_fmax: f64,
    n: u64,
    record: Option<&Mutex<SeedRecord>>,
    say: &(dyn Fn(&str) + Sync),
) -> Result<Vec<f64>> {
    let Some(record) = record else {
        return sweep(image, opts, n, say);
    };
    let placement = Placement::of_build(&opts.out_dir, &opts.pcf, opts.freq_mhz)?;
    let recalled = {
        let record = record.lock().unwrap();
        let path = record.path().display().to_string();
        record
            .recalled(image, &placement, default_fmax, n as usize)
            .map(|fmax| (fmax.to_vec(), path))
    };
    if let Some((fmax, path)) = recalled {
        say(&format!(
            "nextpnr-ice40 seeds 1..={n}: as {path} records them for this netlist, pin constraints, clock \
             and nextpnr (the default placement gave the recorded {default_fmax:.2} MHz); not placed again:"
        ));
        for (seed, f) in (1..).zip(&fmax) {
            say(&format!("  seed {seed}: {f:.2} MHz"));
        }
        let missed: Vec<String> = (1..)
            .zip(&fmax)
            .filter(|(_, &f)| f < opts.freq_mhz)
            .map(|(seed, f)| format!("seed {seed} at {f:.2} MHz"))
            .collect();
        if !missed.is_empty() {
            bail!(
                "timing: {path} records that the {image} image misses {:.2} MHz on {}",
                opts.freq_mhz,
                missed.join(", ")
            );
        }
        return Ok(fmax);
    }
    let by_seed = sweep(image, opts, n, say)?;
    let mut record = record.lock().unwrap();
    record.record(image, placement, default_fmax, &by_seed)?;
    say(&format!("  recorded in {}", record.path().display()));
    Ok(by_seed)
}

/// What `build` says of one flash image in report.json.
struct Image {
    engine: EngineArg,
    report: flow::PnrReport,
    seeds_fmax_mhz: Vec<f64>,
    bin: PathBuf,
}

/// How one image is built.
struct ImageOptions<'a> {
    baud: u32,
    pcf: &'a Path,
    seed: Option<u64>,
    seeds: Option<u64>,
    record: Option<&'a Mutex<SeedRecord>>,
}

/// Builds one engine's image in `out` (and its seeds), telling `say` what
/// it does.
fn build_image(
    engine: EngineArg,
    out: PathBuf,
    o: &ImageOptions,
    say: &(dyn Fn(&str) + Sync),
) -> Result<Image> {
    let (baud, pcf, seed) = (o.baud, o.pcf, o.seed);
    let start = Instant::now();
    let verilog = emit(engine, baud, &out, pcf, say)?;
    let opts = BuildOptions {
        out_dir: out,
        pcf: pcf.to_path_buf(),
        freq_mhz: BOARD_MHZ,
        seed,
        synth_options: engine.engine().synth_options(),
    };
    let result = flow::build(&verilog, &opts, |step| {
        if step.starts_with(' ') {
            say(step)
        } else {
            say(&format!("{step} ..."))
        }
    })?;
    let r = &result.report;
    say("Alchitry Cu (iCE40-HX8K CB132) build of the nonogram solver");
    match engine {
        EngineArg::Dnf => say(&format!(
            "  DNF engine, {baud} baud, option FIFO {FIFO_ENTRIES} entries (NONOGRAM_FIFO_ADDR_BITS={FIFO_ADDR_BITS})"
        )),
        EngineArg::Clues => say(&format!("  clue engine, {baud} baud, boards up to 64x64")),
        EngineArg::Probing => say(&format!("  clue engine with probing, {baud} baud, boards up to 32x32")),
        EngineArg::Colour => say(&format!(
            "  colour clue engine, {baud} baud, boards up to 32x32 with {} inks",
            nonogram_hdl::colour::ENGINE_INKS
        )),
    }
    for line in r.to_string().lines() {
        say(&format!("  {line}"));
    }
    if (r.lcs_available, r.brams_available) != (HX8K_LCS, HX8K_BRAMS) {
        say(&format!(
            "  (note: nextpnr reports a device of {} LCs, {} BRAMs)",
            r.lcs_available, r.brams_available
        ));
    }
    let times: Vec<String> = result
        .steps
        .iter()
        .map(|s| format!("{} {:.1} s", s.step, s.time.as_secs_f64()))
        .collect();
    say(&format!(
        "  time         {:.1} s ({})",
        start.elapsed().as_secs_f64(),
        times.join(", ")
    ));
    say(&format!("  bitstream    {}", result.bin.display()));
    say(&format!("  logs         {}", opts.out_dir.display()));
    let seeds_fmax_mhz = match o.seeds {
        Some(n) => seeds_of(engine.engine().name(), &opts, r.fmax_mhz, n, o.record, say)?,
        None => vec![],
    };
    Ok(Image {
        engine,
        report: result.report,
        seeds_fmax_mhz,
        bin: result.bin,
    })
}

/// Builds `engines`' images, each in its directory under `out`, two at a
/// time on a machine of two cores or more (yosys and nextpnr each use one),
/// and returns them in the order of `engines`. With several images, each
/// line said is prefixed with its image's name.
fn build_images(engines: &[EngineArg], out: &Path, options: &ImageOptions) -> Result<Vec<Image>> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(2);
    flow::in_parallel(engines, workers, |&engine| {
        let name = engine.engine().name();
        let say = |line: &str| {
            if engines.len() > 1 {
                println!("{name}: {line}")
            } else {
                println!("{line}")
            }
        };
        let image = build_image(engine, out.join(engine.dir()), options, &say);
        if let Err(e) = &image {
            say(&format!("failed: {e:#}"));
        }
        image
    })
    .into_iter()
    .collect()
}

/// `build/report.json`: the flash image and what each image holds.
fn flash_report(images: &[Image], baud: u32, flash: Option<(&Path, u64)>) -> serde_json::Value {
    let images: Vec<serde_json::Value> = images
        .iter()
        .map(|i| {
            serde_json::json!({
                "image": i.engine.engine().in_flash().then(|| i.engine.engine().image()),
                "engine": i.engine.engine().name(),
                "logic_cells": i.report.lcs_used,
                "block_rams": i.report.brams_used,
                "fmax_mhz": (i.report.fmax_mhz * 100.0).round() / 100.0,
                "seeds_fmax_mhz": i.seeds_fmax_mhz.iter().map(|f| (f * 100.0).round() / 100.0).collect::<Vec<_>>(),
                "bitstream": i.bin.display().to_string(),
            })
        })
        .collect();
    serde_json::json!({
        "board": "Alchitry Cu (iCE40-HX8K CB132)",
        "clock_mhz": BOARD_MHZ,
        "baud": baud,
        "flash": flash.map(|(p, _)| p.display().to_string()),
        "flash_bytes": flash.map(|(_, n)| n),
        "images": images,
    })
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Cmd::Verilog {
            engine,
            baud,
            out,
            pcf,
        } => {
            let out = out.unwrap_or_else(|| default_build_dir().join(engine.dir()));
            emit(engine, baud, &out, &pcf.unwrap_or_else(default_pcf), &|line| {
                println!("{line}")
            })?;
            println!("  written to {}", out.join("top.v").display());
        }
        Cmd::Build {
            engine,
            baud,
            out,
            seed,
            seeds,
            seed_record,
            pcf,
        } => {
            let out = out.unwrap_or_else(default_build_dir);
            let pcf = pcf.unwrap_or_else(default_pcf);
            let engines = match engine {
                Some(e) => vec![e],
                None => EngineArg::flash(),
            };
            let record = match &seed_record {
                Some(path) if seeds.is_some() => Some(Mutex::new(SeedRecord::open(path)?)),
                Some(_) => bail!("--seed-record keeps the results of --seeds N: give --seeds too"),
                None => None,
            };
            let options = ImageOptions {
                baud,
                pcf: &pcf,
                seed,
                seeds,
                record: record.as_ref(),
            };
            let images = build_images(&engines, &out, &options)?;
            let flash = out.join("flash.bin");
            let _ = std::fs::remove_file(&flash);
            let packed = if engine.is_none() {
                let bins: Vec<PathBuf> = images.iter().map(|i| i.bin.clone()).collect();
                let bytes = flow::pack_flash(&bins, &flash)?;
                println!();
                println!("flash image  {} ({bytes} bytes, icemulti):", flash.display());
                for (n, i) in images.iter().enumerate() {
                    println!(
                        "  image {n}: {} engine{}, {} logic cells, {} block RAMs, {:.2} MHz",
                        i.engine.engine().name(),
                        if n == 0 { " (power-up)" } else { "" },
                        i.report.lcs_used,
                        i.report.brams_used,
                        i.report.fmax_mhz
                    );
                }
                Some((flash.as_path(), bytes))
            } else {
                None
            };
            let report = flash_report(&images, baud, packed);
            let report_path = out.join("report.json");
            std::fs::write(&report_path, serde_json::to_string_pretty(&report)? + "\n")
                .with_context(|| format!("cannot write {}", report_path.display()))?;
            println!("report       {}", report_path.display());
            let target = if packed.is_some() {
                flash.clone()
            } else {
                images[0].bin.clone()
            };
            println!(
                "flash it with: cargo run --release -p nonogram-bsp -- flash --bin {}",
                target.display()
            );
        }
        Cmd::Flash { bin } => {
            let bin = bin.unwrap_or_else(|| default_build_dir().join("flash.bin"));
            println!("programming the Alchitry Cu's flash with {} ...", bin.display());
            let text = flow::flash(&bin)?;
            print!("{text}");
            println!("done: the board now runs the solver (LED 0 blinks once a second).");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
