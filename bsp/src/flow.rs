//! The checked synthesis flow (yosys → nextpnr-ice40 → icepack) and
//! programming (iceprog).
//!
//! Every step's exit code is checked; a failing step ends the build with the
//! last lines of that tool's log, and a design that misses its clock
//! constraint fails with nextpnr's figure and its critical path. The logs stay
//! in the output directory (`yosys.log`, `nextpnr.log`, `icepack.log`,
//! `report.json`).

use anyhow::{anyhow, bail, Context, Result};
use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Logic cells of the iCE40-HX8K.
pub const HX8K_LCS: u64 = 7680;
/// Block RAMs (SB_RAM40_4K) of the iCE40-HX8K.
pub const HX8K_BRAMS: u64 = 32;

/// How to install the tools, said whenever one is missing.
pub const INSTALL_HINT: &str =
    "install the iCE40 tools with: sudo apt-get install yosys nextpnr-ice40 fpga-icestorm";

/// Lines of a failing tool's log shown in the error.
const LOG_TAIL: usize = 25;

/// Options of one build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Where top.v, the logs, top.json, top.asc and top.bin go.
    pub out_dir: PathBuf,
    /// The pin constraints.
    pub pcf: PathBuf,
    /// Clock the design must reach, in MHz. Passed as `--freq`, and checked
    /// against nextpnr's figure; note that a `set_frequency` in the pcf
    /// takes precedence over `--freq` in nextpnr, so the pcf must not ask
    /// for less (checked before place and route).
    pub freq_mhz: f64,
    /// nextpnr's placer seed (its default when `None`).
    pub seed: Option<u64>,
    /// Options of yosys's `synth_ice40` (`Engine::synth_options`).
    pub synth_options: &'static str,
}

/// One step's name and wall time.
#[derive(Clone, Debug)]
pub struct StepTime {
    pub step: &'static str,
    pub time: Duration,
}

/// One hop of nextpnr's critical path.
#[derive(Clone, Debug, PartialEq)]
pub struct PathStep {
    /// `clk-to-q`, `routing`, `logic` or `setup`.
    pub kind: String,
    pub from_cell: String,
    pub to_cell: String,
    /// The port it ends at (`I0`.., `CEN` a clock enable, `O` an output).
    pub to_port: String,
    /// The net, for a routing hop.
    pub net: Option<String>,
    pub delay_ns: f64,
}

/// What nextpnr's `--report` says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PnrReport {
    pub lcs_used: u64,
    pub lcs_available: u64,
    pub brams_used: u64,
    pub brams_available: u64,
    /// Lowest achieved frequency over the clocks, MHz.
    pub fmax_mhz: f64,
    /// Its constraint, MHz.
    pub constraint_mhz: f64,
    /// The clock net that sets `fmax_mhz`.
    pub clock: String,
    pub critical_path: Vec<PathStep>,
}

impl PnrReport {
    pub fn meets_timing(&self) -> bool {
        self.fmax_mhz >= self.constraint_mhz
    }

    /// The critical path in a few lines: its start and end cells, and the
    /// nets it goes through with their delays.
    pub fn critical_path_summary(&self) -> String {
        let (Some(first), Some(last)) = (self.critical_path.first(), self.critical_path.last()) else {
            return "  (nextpnr reported no critical path)".into();
        };
        // nextpnr 0.4 puts the launching cell in the clock-to-q hop's `to`.
        let start = if first.kind == "clk-to-q" {
            &first.to_cell
        } else {
            &first.from_cell
        };
        let total: f64 = self.critical_path.iter().map(|s| s.delay_ns).sum();
        let logic: f64 = self
            .critical_path
            .iter()
            .filter(|s| s.kind == "logic")
            .map(|s| s.delay_ns)
            .sum();
        let levels = self.critical_path.iter().filter(|s| s.kind == "logic").count();
        let mut text = format!(
            "  from {} (cell {})\n  to   {} (cell {}, port {})\n  {total:.2} ns: {levels} logic levels ({logic:.2} ns), the rest clock-to-q, routing and setup\n  through the nets (carry-chain hops of no routing delay left out):\n",
            rust_hdl_name(start),
            start,
            rust_hdl_name(&last.to_cell),
            last.to_cell,
            last.to_port
        );
        let mut carry = 0;
        for step in &self.critical_path {
            if let Some(net) = &step.net {
                if step.delay_ns < 0.001 {
                    carry += 1;
                    continue;
                }
                if carry > 0 {
                    text += &format!("              ({carry} carry-chain hops)\n");
                    carry = 0;
                }
                text += &format!("    {:6.3} ns  {net}\n", step.delay_ns);
            }
        }
        if carry > 0 {
            text += &format!("              ({carry} carry-chain hops)\n");
        }
        text
    }
}

/// The RustHDL signal a nextpnr cell is named after: yosys names a cell
/// after the net it drives (`core.parser.rows_q.q_SB_DFFE_Q_9_DFFLC` is a
/// flip-flop of the DFF `rows_q` in block `core.parser`).
pub fn rust_hdl_name(cell: &str) -> String {
    let cut = [cell.find("_SB_"), cell.find("_DFFLC"), cell.find('$')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(cell.len());
    let name = &cell[..cut];
    let name = name
        .strip_suffix(".q")
        .or(name.strip_suffix(".d"))
        .unwrap_or(name);
    if name.is_empty() {
        cell.to_string()
    } else {
        name.to_string()
    }
}

impl fmt::Display for PnrReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "logic cells  {:>5} / {} ({:.1} %)",
            self.lcs_used,
            self.lcs_available,
            100.0 * self.lcs_used as f64 / self.lcs_available.max(1) as f64
        )?;
        writeln!(
            f,
            "block RAMs   {:>5} / {} ({:.1} %)",
            self.brams_used,
            self.brams_available,
            100.0 * self.brams_used as f64 / self.brams_available.max(1) as f64
        )?;
        write!(
            f,
            "max clock    {:.2} MHz (constraint {:.2} MHz: {})",
            self.fmax_mhz,
            self.constraint_mhz,
            if self.meets_timing() { "PASS" } else { "FAIL" }
        )
    }
}

/// Parses nextpnr-ice40's `--report` JSON.
pub fn parse_report(json: &str) -> Result<PnrReport> {
    let v: serde_json::Value = serde_json::from_str(json).context("report.json is not JSON")?;
    let util = &v["utilization"];
    let used = |kind: &str, key: &str| util[kind][key].as_u64().unwrap_or(0);
    let mut report = PnrReport {
        lcs_used: used("ICESTORM_LC", "used"),
        lcs_available: util["ICESTORM_LC"]["available"].as_u64().unwrap_or(HX8K_LCS),
        brams_used: used("ICESTORM_RAM", "used"),
        brams_available: util["ICESTORM_RAM"]["available"].as_u64().unwrap_or(HX8K_BRAMS),
        ..Default::default()
    };
    let fmax = v["fmax"]
        .as_object()
        .ok_or_else(|| anyhow!("report.json has no fmax: no clock was found"))?;
    let mut worst: Option<(f64, f64, String)> = None;
    for (clock, figures) in fmax {
        let achieved = figures["achieved"].as_f64().unwrap_or(0.0);
        let constraint = figures["constraint"].as_f64().unwrap_or(0.0);
        let slack = achieved - constraint;
        if worst.as_ref().map_or(true, |(a, c, _)| slack < a - c) {
            worst = Some((achieved, constraint, clock.clone()));
        }
    }
    let (achieved, constraint, clock) =
        worst.ok_or_else(|| anyhow!("report.json's fmax is empty: no clock was found"))?;
    report.fmax_mhz = achieved;
    report.constraint_mhz = constraint;
    report.clock = clock;
    // The critical path of the worst clock (the first path if none matches).
    let paths = v["critical_paths"].as_array().cloned().unwrap_or_default();
    let path = paths
        .iter()
        .find(|p| {
            p["from"].as_str().is_some_and(|s| s.ends_with(&report.clock))
                && p["to"].as_str().is_some_and(|s| s.ends_with(&report.clock))
        })
        .or(paths.first());
    if let Some(path) = path {
        for step in path["path"].as_array().cloned().unwrap_or_default() {
            report.critical_path.push(PathStep {
                kind: step["type"].as_str().unwrap_or("").to_string(),
                from_cell: step["from"]["cell"].as_str().unwrap_or("").to_string(),
                to_cell: step["to"]["cell"].as_str().unwrap_or("").to_string(),
                to_port: step["to"]["port"].as_str().unwrap_or("").to_string(),
                net: step["net"].as_str().map(str::to_string),
                delay_ns: step["delay"].as_f64().unwrap_or(0.0),
            });
        }
    }
    Ok(report)
}

/// What a successful build produced.
#[derive(Clone, Debug)]
pub struct BuildResult {
    pub report: PnrReport,
    pub bin: PathBuf,
    pub steps: Vec<StepTime>,
}

/// The last `n` lines of `text`.
/// For tests: whether yosys, nextpnr-ice40 and icepack are on PATH. Outside
/// CI a test without them is skipped with a notice; in CI (`CI` set) their
/// absence is an error, since CI installs them and must run the checks.
pub fn tools_for_tests(test: &str) -> bool {
    let missing: Vec<&str> = ["yosys", "nextpnr-ice40", "icepack"]
        .into_iter()
        .filter(|tool| std::process::Command::new(tool).arg("--help").output().is_err())
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run {test}: {} not installed",
        missing.join(", ")
    );
    eprintln!(
        "skipped {test}: {} not installed (apt-get install yosys nextpnr-ice40 fpga-icestorm)",
        missing.join(", ")
    );
    false
}

pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs `cmd` in `dir`; its stdout and stderr go to `dir/<log_name>.out`.
/// Fails, with the last lines of `log` (the tool's own log, if it writes one)
/// or of its output, when it cannot start or exits non-zero.
fn run_tool(
    cmd: &mut Command,
    dir: &Path,
    tool: &str,
    log: Option<&Path>,
    install_hint: &str,
) -> Result<Output> {
    cmd.current_dir(dir);
    let output = match cmd.output() {
        Ok(o) => o,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            bail!("{tool} is not installed (not found on PATH): {install_hint}")
        }
        Err(e) => return Err(e).with_context(|| format!("cannot run {tool}")),
    };
    let mut both = String::from_utf8_lossy(&output.stdout).into_owned();
    both += &String::from_utf8_lossy(&output.stderr);
    let out_file = dir.join(format!("{tool}.out"));
    fs::write(&out_file, &both).with_context(|| format!("cannot write {}", out_file.display()))?;
    if !output.status.success() {
        let log_text = log
            .and_then(|l| fs::read_to_string(l).ok())
            .filter(|t| !t.trim().is_empty());
        let (shown, from) = match (&log_text, log) {
            (Some(t), Some(l)) => (t.as_str(), l.display().to_string()),
            _ => (both.as_str(), out_file.display().to_string()),
        };
        // stderr often holds the one line that matters; keep it in view.
        let stderr = String::from_utf8_lossy(&output.stderr);
        let mut message = format!(
            "{tool} failed ({}); last lines of {from}:\n{}",
            output.status,
            tail(shown, LOG_TAIL)
        );
        if log_text.is_some() && !stderr.trim().is_empty() && !shown.contains(stderr.trim()) {
            message += &format!("\n{tool}'s error output:\n{}", tail(&stderr, 10));
        }
        bail!(message);
    }
    Ok(output)
}

/// Synthesises, places and routes `verilog` (whose top module is `top`) for
/// the Alchitry Cu, and packs the bitstream. `progress` is told as each step
/// starts.
pub fn build(verilog: &str, opts: &BuildOptions, mut progress: impl FnMut(&str)) -> Result<BuildResult> {
    let dir = &opts.out_dir;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", dir.display()))?;
    let pcf = opts
        .pcf
        .canonicalize()
        .with_context(|| format!("cannot find the pin constraints {}", opts.pcf.display()))?;
    let pcf_text = fs::read_to_string(&pcf)
        .with_context(|| format!("cannot read the pin constraints {}", pcf.display()))?;
    let parsed = crate::pcf::parse_pcf(&pcf_text).map_err(|e| anyhow!("{}: {e}", pcf.display()))?;
    if let Some(low) = parsed.frequencies.iter().find(|f| f.mhz < opts.freq_mhz) {
        bail!(
            "{} line {}: set_frequency {} {} asks less than the {} MHz the board runs at",
            pcf.display(),
            low.line,
            low.net,
            low.mhz,
            opts.freq_mhz
        );
    }
    // No stale product may survive a failed build.
    for stale in [
        "top.json",
        "top.asc",
        "top.bin",
        "report.json",
        "top.sdf",
        "yosys.log",
        "nextpnr.log",
    ] {
        let _ = fs::remove_file(dir.join(stale));
    }
    fs::write(dir.join("top.v"), verilog).context("cannot write top.v")?;
    let mut steps = vec![];

    progress(&format!(
        "yosys: synthesising top.v for the iCE40 (synth_ice40 {})",
        opts.synth_options
    ));
    let start = Instant::now();
    let script = format!(
        "read_verilog top.v; hierarchy -check -top top; proc; check -assert; \
         synth_ice40 {} -top top -json top.json; stat",
        opts.synth_options
    );
    run_tool(
        Command::new("yosys").args(["-q", "-l", "yosys.log", "-p", &script]),
        &dir,
        "yosys",
        Some(&dir.join("yosys.log")),
        INSTALL_HINT,
    )?;
    steps.push(StepTime {
        step: "yosys",
        time: start.elapsed(),
    });
    progress(&format!("  yosys took {:.1} s", start.elapsed().as_secs_f64()));

    progress("nextpnr-ice40: placing and routing (hx8k, cb132)");
    let start = Instant::now();
    let (pnr, report) = place_and_route(&dir, &pcf, opts, true);
    steps.push(StepTime {
        step: "nextpnr-ice40",
        time: start.elapsed(),
    });
    progress(&format!(
        "  nextpnr-ice40 took {:.1} s",
        start.elapsed().as_secs_f64()
    ));
    match (pnr, report) {
        (_, Some(Ok(report))) if !report.meets_timing() => {
            let _ = fs::remove_file(dir.join("top.asc"));
            bail!(
                "timing: the design reaches {:.2} MHz on clock {}, short of the {:.2} MHz it must run at \
                 (nextpnr-ice40; its \"Critical path report\" in {} gives each net's top.v lines).\n{}\ncritical path:\n{}",
                report.fmax_mhz,
                report.clock,
                report.constraint_mhz,
                dir.join("nextpnr.log").display(),
                report,
                report.critical_path_summary()
            );
        }
        (Ok(_), Some(Ok(report))) => pack(&dir, report, steps, progress),
        (Err(e), _) => Err(e),
        (Ok(_), None) => bail!("nextpnr-ice40 exited 0 but wrote no report.json"),
        (Ok(_), Some(Err(e))) => Err(e),
    }
}

/// Runs nextpnr-ice40 in `dir` on `top.json` there (writing `top.asc` when
/// `asc`), and reads its report. nextpnr writes the report even when timing
/// fails (and then exits 1), so both come back, for the caller to say why.
fn place_and_route(
    dir: &Path,
    pcf: &Path,
    opts: &BuildOptions,
    asc: bool,
) -> (Result<std::process::Output>, Option<Result<PnrReport>>) {
    let freq = format!("{}", opts.freq_mhz);
    let pcf_arg = pcf.to_string_lossy().into_owned();
    let mut cmd = Command::new("nextpnr-ice40");
    cmd.args(["--hx8k", "--package", "cb132", "--pcf", &pcf_arg, "--freq", &freq])
        .args([
            "--json",
            "top.json",
            "--report",
            "report.json",
            "-l",
            "nextpnr.log",
            "-q",
            // Every net's delay, for bsp/tools/slack.py (all failing paths).
            "--sdf",
            "top.sdf",
        ]);
    if asc {
        cmd.args(["--asc", "top.asc"]);
    }
    if let Some(seed) = opts.seed {
        cmd.args(["--seed", &seed.to_string()]);
    }
    let _ = fs::remove_file(dir.join("report.json"));
    let pnr = run_tool(
        &mut cmd,
        dir,
        "nextpnr-ice40",
        Some(&dir.join("nextpnr.log")),
        INSTALL_HINT,
    );
    let report = fs::read_to_string(dir.join("report.json")).ok().map(|text| {
        parse_report(&text).map(|mut r| {
            r.constraint_mhz = r.constraint_mhz.max(opts.freq_mhz);
            r
        })
    });
    (pnr, report)
}

/// Places and routes a finished build's netlist (`top.json` in
/// `opts.out_dir`) again with each of `seeds`, each in `seed-N/` beside it,
/// and returns nextpnr's report of each, met or not, in the order of
/// `seeds`. nextpnr places on one core, so the seeds run side by side, one
/// per core. `progress` hears of each run as it ends.
pub fn sweep_seeds(
    opts: &BuildOptions,
    seeds: &[u64],
    progress: impl FnMut(&str) + Send,
) -> Result<Vec<(u64, PnrReport)>> {
    let pcf = opts
        .pcf
        .canonicalize()
        .with_context(|| format!("cannot find the pin constraints {}", opts.pcf.display()))?;
    let netlist = opts.out_dir.join("top.json");
    if !netlist.is_file() {
        bail!("cannot find {} (build first)", netlist.display());
    }
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let progress = std::sync::Mutex::new(progress);
    let reports = in_parallel(seeds, workers, |&seed| {
        let start = Instant::now();
        let report = place_and_route_seed(opts, &pcf, &netlist, seed);
        if let Ok(report) = &report {
            (progress.lock().unwrap())(&format!(
                "  seed {seed}: {:.2} MHz, {} logic cells ({:.1} s)",
                report.fmax_mhz,
                report.lcs_used,
                start.elapsed().as_secs_f64()
            ));
        }
        report
    });
    seeds
        .iter()
        .zip(reports)
        .map(|(&seed, report)| Ok((seed, report?)))
        .collect()
}

/// `f` of each of `items`, on up to `workers` threads (each takes the
/// next item left), the results in the order of `items`. The tools the
/// flow runs use one core each, so their runs go side by side this way.
pub fn in_parallel<T: Sync, R: Send>(items: &[T], workers: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = f(item);
                *results[i].lock().unwrap() = Some(result);
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap().expect("every item was run"))
        .collect()
}

/// The every-seed rule: fails, when any of a sweep's `reports` (seed,
/// report) misses its constraint, naming `image`, each such seed and its
/// fmax, and the worst seed's critical path (its logs are in `out_dir`'s
/// `seed-N/`). One seed below the clock is a failure: a design that meets
/// it on lucky placements only fails on the next unrelated change.
pub fn check_every_seed(image: &str, reports: &[(u64, PnrReport)], out_dir: &Path) -> Result<()> {
    let missed: Vec<&(u64, PnrReport)> = reports.iter().filter(|(_, r)| !r.meets_timing()).collect();
    let Some((worst_seed, worst)) = missed
        .iter()
        .copied()
        .min_by(|a, b| a.1.fmax_mhz.total_cmp(&b.1.fmax_mhz))
    else {
        return Ok(());
    };
    let list: Vec<String> = missed
        .iter()
        .map(|(seed, r)| format!("seed {seed} at {:.2} MHz", r.fmax_mhz))
        .collect();
    bail!(
        "timing: the {image} image misses {:.2} MHz on {} of {} nextpnr seeds: {} (every seed must \
         meet it; logs in {}).\nseed {worst_seed}'s critical path:\n{}",
        worst.constraint_mhz,
        missed.len(),
        reports.len(),
        list.join(", "),
        out_dir.join(format!("seed-{worst_seed}")).display(),
        worst.critical_path_summary()
    )
}

/// One seed of [`sweep_seeds`], in its own directory.
fn place_and_route_seed(opts: &BuildOptions, pcf: &Path, netlist: &Path, seed: u64) -> Result<PnrReport> {
    let dir = opts.out_dir.join(format!("seed-{seed}"));
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    fs::copy(netlist, dir.join("top.json")).with_context(|| format!("cannot copy {}", netlist.display()))?;
    let seeded = BuildOptions {
        seed: Some(seed),
        ..opts.clone()
    };
    let (pnr, report) = place_and_route(&dir, pcf, &seeded, false);
    let _ = fs::remove_file(dir.join("top.json"));
    match report {
        Some(report) => report,
        None => {
            pnr?;
            bail!("nextpnr-ice40 wrote no report in {}", dir.display())
        }
    }
}

fn pack(
    dir: &Path,
    report: PnrReport,
    mut steps: Vec<StepTime>,
    mut progress: impl FnMut(&str),
) -> Result<BuildResult> {
    progress("icepack: packing the bitstream");
    let start = Instant::now();
    run_tool(
        Command::new("icepack").args(["top.asc", "top.bin"]),
        dir,
        "icepack",
        None,
        INSTALL_HINT,
    )?;
    steps.push(StepTime {
        step: "icepack",
        time: start.elapsed(),
    });
    let bin = dir.join("top.bin");
    let size = fs::metadata(&bin)
        .with_context(|| format!("icepack exited 0 but wrote no {}", bin.display()))?
        .len();
    if size == 0 {
        bail!("icepack wrote an empty {}", bin.display());
    }
    Ok(BuildResult { report, bin, steps })
}

/// Packs `images` (bitstreams, image 0 first) into one flash image at
/// `out` with `icemulti`, image 0 the power-up one: the iCE40 boots it, and
/// `SB_WARMBOOT` reboots into any other. Returns the file's size in bytes.
pub fn pack_flash(images: &[PathBuf], out: &Path) -> Result<u64> {
    if images.is_empty() || images.len() > 4 {
        bail!("a flash holds 1 to 4 images, not {}", images.len());
    }
    let _ = fs::remove_file(out);
    let dir = out.parent().unwrap_or(Path::new("."));
    let mut cmd = Command::new("icemulti");
    cmd.arg("-p0").arg("-o").arg(std::path::absolute(out)?);
    for image in images {
        cmd.arg(
            image
                .canonicalize()
                .with_context(|| format!("cannot find {}", image.display()))?,
        );
    }
    run_tool(&mut cmd, dir, "icemulti", None, INSTALL_HINT)?;
    let size = fs::metadata(out)
        .with_context(|| format!("icemulti exited 0 but wrote no {}", out.display()))?
        .len();
    // Each image is whole, after icemulti's header of jump commands.
    let least: u64 = images
        .iter()
        .filter_map(|i| fs::metadata(i).ok())
        .map(|m| m.len())
        .sum();
    if size < least {
        bail!(
            "icemulti wrote {size} bytes to {}, less than its {least} bytes of images",
            out.display()
        );
    }
    Ok(size)
}

/// Programs the Alchitry Cu's flash with `bin`, through `iceprog`.
/// Returns iceprog's output.
pub fn flash(bin: &Path) -> Result<String> {
    if !bin.is_file() {
        bail!(
            "no bitstream at {}: build one first with `cargo run --release -p nonogram-bsp -- build`, \
             or name one with --bin PATH",
            bin.display()
        );
    }
    let output = match Command::new("iceprog").arg(bin).output() {
        Ok(o) => o,
        Err(e) if e.kind() == ErrorKind::NotFound => bail!(
            "iceprog is not installed (not found on PATH): install it with \
             `sudo apt-get install fpga-icestorm` (Debian, Ubuntu), or build it from the \
             IceStorm project's sources"
        ),
        Err(e) => return Err(e).context("cannot run iceprog"),
    };
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text += &String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let mut hint = String::new();
        if text.contains("Can't find iCE FTDI USB device") || text.contains("find_device") {
            hint = "hint: no Alchitry Cu found. Plug the board in by USB; `lsusb` should list \
                    0403:6010 (Future Technology Devices FT2232C/D/H). If it does, the user may lack \
                    permission for the USB device: add a udev rule for 0403:6010 (MODE=\"0666\") \
                    or run iceprog with sudo; also close any program holding the board."
                .into();
        } else if text.contains("permission") || text.contains("Permission") {
            hint = "hint: no permission for the USB device: add a udev rule for 0403:6010 \
                    (MODE=\"0666\") or run iceprog with sudo."
                .into();
        }
        bail!(
            "iceprog failed ({}):\n{}\n{hint}",
            output.status,
            tail(text.trim_end(), LOG_TAIL)
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"{
      "critical_paths": [{
        "from": "posedge clock$SB_IO_IN_$glb_clk", "to": "posedge clock$SB_IO_IN_$glb_clk",
        "path": [
          {"type": "clk-to-q", "delay": 0.54, "from": {"cell": "a_LC", "port": "CLK"}, "to": {"cell": "a_LC", "port": "O"}},
          {"type": "routing", "delay": 1.5, "net": "core.x[3]", "from": {"cell": "a_LC", "port": "O"}, "to": {"cell": "b_LC", "port": "I0"}},
          {"type": "logic", "delay": 0.45, "from": {"cell": "b_LC", "port": "I0"}, "to": {"cell": "b_LC", "port": "O"}},
          {"type": "setup", "delay": 0.1, "from": {"cell": "b_LC", "port": "O"}, "to": {"cell": "c_LC", "port": "I1"}}
        ]}],
      "fmax": {"clock$SB_IO_IN_$glb_clk": {"achieved": 87.5, "constraint": 100}},
      "utilization": {"ICESTORM_LC": {"available": 7680, "used": 2345},
                      "ICESTORM_RAM": {"available": 32, "used": 16}}
    }"#;

    #[test]
    fn the_report_is_read() {
        let r = parse_report(REPORT).unwrap();
        assert_eq!((r.lcs_used, r.lcs_available), (2345, 7680));
        assert_eq!((r.brams_used, r.brams_available), (16, 32));
        assert_eq!((r.fmax_mhz, r.constraint_mhz), (87.5, 100.0));
        assert!(!r.meets_timing());
        assert_eq!(r.critical_path.len(), 4);
        let summary = r.critical_path_summary();
        assert!(
            summary.contains("from a_LC") && summary.contains("to   c_LC"),
            "{summary}"
        );
        assert!(summary.contains("core.x[3]"), "{summary}");
        assert!(r.to_string().contains("FAIL"));
    }

    #[test]
    fn cells_are_named_after_their_rust_hdl_signals() {
        assert_eq!(
            rust_hdl_name("core.parser.rows_q.q_SB_DFFE_Q_9_DFFLC"),
            "core.parser.rows_q"
        );
        assert_eq!(
            rust_hdl_name("core.parser.option_q.q_SB_DFFESR_Q_D_SB_LUT4_O_LC"),
            "core.parser.option_q"
        );
        assert_eq!(rust_hdl_name("$nextpnr_ICESTORM_LC_9"), "$nextpnr_ICESTORM_LC_9");
    }

    #[test]
    fn every_seed_must_meet_the_clock() {
        let missing = parse_report(REPORT).unwrap();
        let mut meeting = missing.clone();
        meeting.fmax_mhz = 100.46;
        let dir = Path::new("/out/clues");
        assert!(check_every_seed("clues", &[(1, meeting.clone()), (2, meeting.clone())], dir).is_ok());
        let err = check_every_seed("clues", &[(1, meeting.clone()), (2, missing), (3, meeting)], dir)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the clues image misses 100.00 MHz on 1 of 3 nextpnr seeds: seed 2 at 87.50 MHz"),
            "{err}"
        );
        assert!(
            err.contains("/out/clues/seed-2") && err.contains("core.x[3]"),
            "{err}"
        );
    }

    #[test]
    fn a_report_without_clock_is_an_error() {
        assert!(parse_report(r#"{"fmax": {}, "utilization": {}}"#).is_err());
    }

    #[test]
    fn flashing_a_missing_file_says_to_build() {
        let err = flash(Path::new("/nonexistent/top.bin")).unwrap_err().to_string();
        assert!(err.contains("-- build"), "{err}");
    }
}
