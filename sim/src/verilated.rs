//! The core's emitted Verilog under Verilator: the build (cached), and a
//! running Verilated core that the simulated board steps instead of
//! RustHDL's simulation, 20 to 100 times faster.
//!
//! The C++ harness, `sim/verilator/harness.cpp`, drives the core's pins
//! exactly as [`CoreDriver`](nonogram_hdl::bench::driver::CoreDriver) does: one
//! reset cycle, then per cycle the rx level, a clock edge, the tx sample.
//! Its serve mode takes commands on stdin and answers on stdout; the batch
//! mode runs a schedule of host bytes (the Verilator cross-check tests).
//!
//! A build is a directory named by a hash of everything that goes into it
//! (the Verilog, the harness, the flags, the tools' versions), under
//! [`cache_root`], so a change rebuilds and nothing else does. Builds are
//! serialised by a lock file, so processes that start at once build once.

use nonogram_hdl::bench::driver::SerialCore;
use nonogram_hdl::board_model::Engine;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// The harness, hashed into the cache key and written next to the Verilog.
pub const HARNESS: &str = include_str!("../verilator/harness.cpp");

/// Verilator's flags besides the files. `+1364-2005ext+v`: RustHDL emits
/// Verilog-2005, where `solve` (a port of the parser) is no keyword; in
/// SystemVerilog it is. `-Wno-fatal`: RustHDL's Verilog draws hundreds of
/// WIDTH warnings and one UNOPTFLAT; they are counted, not hidden.
/// `--unroll-count 256`: a block RAM's per-bit write loop (`common::ram`)
/// must unroll, and the colour board's words are 160 bits (the default
/// unrolls 64).
pub const VERILATOR_FLAGS: &[&str] = &[
    "--cc",
    "--exe",
    "--build",
    "-O2",
    "-j",
    "2",
    "+1364-2005ext+v",
    "-Wno-fatal",
    "--unroll-count",
    "256",
    "--top-module",
    "top",
    "-o",
    "nonogram-verilated",
];

/// yosys's script for `engine`'s netlist: the same `synth_ice40` as its
/// bitstream's.
pub fn synth_script(engine: Engine) -> String {
    format!(
        "read_verilog top.v; synth_ice40 {} -top top; write_verilog -noattr netlist.v",
        engine.synth_options()
    )
}

/// What Verilator runs: the core's emitted Verilog, yosys's netlist of it,
/// or the Alchitry Cu top level's emitted Verilog (pins usb_rx, usb_tx, leds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    Rtl,
    Netlist,
    BoardTop,
}

pub fn verilator_version() -> Option<String> {
    tool_version("verilator", "--version")
}

pub fn yosys_version() -> Option<String> {
    tool_version("yosys", "-V")
}

fn tool_version(tool: &str, flag: &str) -> Option<String> {
    let out = Command::new(tool).arg(flag).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// yosys's iCE40 cell models, for the netlist.
pub fn cells_sim() -> Option<PathBuf> {
    let datdir = Command::new("yosys-config")
        .arg("--datdir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    [
        datdir,
        Some(PathBuf::from("/usr/share/yosys")),
        Some(PathBuf::from("/usr/local/share/yosys")),
    ]
    .into_iter()
    .flatten()
    .map(|d| d.join("ice40").join("cells_sim.v"))
    .find(|p| p.is_file())
}

/// Where builds are kept: `$NONOGRAM_VERILATED_CACHE`, else
/// `$XDG_CACHE_HOME/nonogram/verilated`, else `~/.cache/nonogram/verilated`.
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("NONOGRAM_VERILATED_CACHE") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("nonogram").join("verilated")
}

/// FNV-1a, 64 bits: a cache key that stays the same across Rust versions.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for &b in part.iter().chain(&[0xff]) {
            hash ^= b as u64;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The Verilog of the core `CoreDriver` runs for `engine` at `clocks_per_bit`.
pub fn core_verilog(engine: Engine, clocks_per_bit: u32) -> String {
    fn emit<C: SerialCore>(clocks_per_bit: u32) -> String {
        let mut core = C::with_clocks_per_bit(clocks_per_bit);
        rust_hdl::prelude::Block::connect_all(&mut core);
        rust_hdl::prelude::generate_verilog(&core)
    }
    let verilog = match engine {
        Engine::Dnf => emit::<nonogram_hdl::dnf::core::NonogramCore>(clocks_per_bit),
        Engine::Clues => emit::<nonogram_hdl::clue::core::ClueCore>(clocks_per_bit),
        Engine::Probing => emit::<nonogram_hdl::clue::core::ProbingCore>(clocks_per_bit),
        Engine::Colour => emit::<nonogram_hdl::colour::core::ColourCore>(clocks_per_bit),
    };
    assert!(
        verilog.contains("module top(clock,reset,rx,tx,phase,outcome,outcome_valid,boot,boot_image);"),
        "the top module's ports changed: the harness drives clock, reset, rx and reads tx, phase, boot, boot_image"
    );
    verilog
}

pub struct Built {
    pub binary: PathBuf,
    /// Seconds the build took (0 when the cache had it).
    pub build_seconds: f64,
    /// Verilator's output.
    pub log: String,
}

/// The directory a build of `verilog` as `flavor` goes in.
fn build_dir(verilog: &str, flavor: Flavor, engine: Engine) -> Result<PathBuf, String> {
    let version = verilator_version().ok_or("verilator is not installed")?;
    let tools = match flavor {
        Flavor::Rtl => version,
        Flavor::Netlist => format!(
            "{version} {} {}",
            synth_script(engine),
            yosys_version().unwrap_or_default()
        ),
        Flavor::BoardTop => format!("{version} -CFLAGS -DBOARD_TOP"),
    };
    let key = fnv1a(&[
        verilog.as_bytes(),
        HARNESS.as_bytes(),
        VERILATOR_FLAGS.join(" ").as_bytes(),
        tools.as_bytes(),
    ]);
    Ok(cache_root().join(format!("{flavor:?}-{key:016x}").to_lowercase()))
}

/// The binary of an earlier build of `verilog` as `flavor`, if there is one.
pub fn cached(verilog: &str, flavor: Flavor, engine: Engine) -> Option<PathBuf> {
    let binary = build_dir(verilog, flavor, engine)
        .ok()?
        .join("obj")
        .join("nonogram-verilated");
    binary.is_file().then_some(binary)
}

/// The board top level's declaration of the iCE40's `SB_WARMBOOT` (an
/// empty blackbox; `nonogram_bsp::top::WARMBOOT_BLACKBOX`).
const WARMBOOT_BLACKBOX: &str = "(* blackbox *)
module SB_WARMBOOT(input BOOT, input S1, input S0);
endmodule
";

/// What Verilator runs in its place: it reports, among the harness's
/// events, the image the FPGA would reboot into when BOOT rises.
const WARMBOOT_STAND_IN: &str = "module SB_WARMBOOT(input BOOT, input S1, input S0);
    always @(posedge BOOT) $display(\"warmboot %0d\", {S1, S0});
endmodule
";

/// Builds (or finds in the cache) the harness around `verilog`, as `flavor`.
pub fn build(verilog: &str, flavor: Flavor, engine: Engine) -> Result<Built, String> {
    let stand_in;
    let verilog = if flavor == Flavor::BoardTop {
        if !verilog.contains(WARMBOOT_BLACKBOX) {
            return Err("the board top level does not declare SB_WARMBOOT as expected".into());
        }
        stand_in = verilog.replace(WARMBOOT_BLACKBOX, WARMBOOT_STAND_IN);
        &stand_in
    } else {
        verilog
    };
    let dir = build_dir(verilog, flavor, engine)?;
    let root = cache_root();
    let binary = dir.join("obj").join("nonogram-verilated");
    let cached = |binary: &Path| {
        binary.is_file().then(|| Built {
            binary: binary.to_path_buf(),
            build_seconds: 0.0,
            log: std::fs::read_to_string(dir.join("verilator.log")).unwrap_or_default(),
        })
    };
    if let Some(built) = cached(&binary) {
        return Ok(built);
    }
    let io = |what: &str, e: io::Error| format!("{what} under {}: {e}", root.display());
    std::fs::create_dir_all(&root).map_err(|e| io("cannot create the Verilator cache", e))?;
    // One build at a time; whoever waited finds the binary made.
    let lock = std::fs::File::create(root.join("lock")).map_err(|e| io("cannot create the lock", e))?;
    lock.lock().map_err(|e| io("cannot lock", e))?;
    if let Some(built) = cached(&binary) {
        return Ok(built);
    }
    let staging = root.join(format!("building-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| io("cannot create", e))?;
    std::fs::write(staging.join("top.v"), verilog).map_err(|e| io("cannot write top.v", e))?;
    std::fs::write(staging.join("harness.cpp"), HARNESS).map_err(|e| io("cannot write harness.cpp", e))?;
    let start = Instant::now();
    let sources: Vec<String> = match flavor {
        Flavor::Rtl => vec!["top.v".into()],
        Flavor::BoardTop => vec!["-CFLAGS".into(), "-DBOARD_TOP".into(), "top.v".into()],
        Flavor::Netlist => {
            let out = Command::new("yosys")
                .args(["-q", "-p", &synth_script(engine)])
                .current_dir(&staging)
                .output()
                .map_err(|e| format!("yosys: {e}"))?;
            if !out.status.success() {
                return Err(format!("yosys failed: {}", String::from_utf8_lossy(&out.stderr)));
            }
            let cells = cells_sim().ok_or("yosys's ice40/cells_sim.v is not installed")?;
            // NO_ICE40_DEFAULT_ASSIGNMENTS: the cell models give some ports
            // default values, which Verilator's Verilog mode refuses; yosys's
            // netlist connects every port anyway.
            vec![
                "-DNO_ICE40_DEFAULT_ASSIGNMENTS".into(),
                "netlist.v".into(),
                cells.display().to_string(),
            ]
        }
    };
    let out = Command::new("verilator")
        .args(VERILATOR_FLAGS)
        .args(["--Mdir", "obj"])
        .args(&sources)
        .arg("harness.cpp")
        .current_dir(&staging)
        .output()
        .map_err(|e| format!("verilator: {e}"))?;
    let build_seconds = start.elapsed().as_secs_f64();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::write(staging.join("verilator.log"), &log);
    if !out.status.success() {
        return Err(format!(
            "verilator failed ({}), in {}:\n{}",
            out.status,
            staging.display(),
            // The errors first: RustHDL's Verilog draws many warnings.
            log.lines()
                .filter(|l| l.starts_with("%Error"))
                .chain(log.lines().filter(|l| l.starts_with("%Warning")))
                .take(40)
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&staging, &dir).map_err(|e| io("cannot publish the build", e))?;
    Ok(Built {
        binary,
        build_seconds,
        log,
    })
}

/// Verilator's warnings in a build log, counted by kind.
pub fn warning_summary(log: &str) -> String {
    let mut kinds: Vec<(String, usize)> = vec![];
    for line in log.lines().filter(|l| l.starts_with("%Warning-")) {
        let kind = line["%Warning-".len()..]
            .split(':')
            .next()
            .unwrap_or("")
            .to_string();
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    kinds
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Verilated core in its own process (the harness's serve mode), driven
/// like a [`CoreDriver`](nonogram_hdl::bench::driver::CoreDriver).
pub struct VerilatedCore {
    child: Child,
    to: BufWriter<ChildStdin>,
    from: BufReader<ChildStdout>,
    received: Vec<u8>,
    /// As the harness said after the last run, and nothing sent since.
    quiet: bool,
    cycles: u64,
    framing_errors: u64,
    /// The flash image the core asked SB_WARMBOOT for, once it did.
    boot: Option<u8>,
}

impl VerilatedCore {
    /// Starts the core built at `binary` with its UART at `clocks_per_bit`,
    /// the host's bytes arriving at a rate off by `send_rate_error`.
    pub fn start(binary: &Path, clocks_per_bit: u32, send_rate_error: f64) -> io::Result<VerilatedCore> {
        let send_period = clocks_per_bit as f64 * (1.0 + send_rate_error);
        let mut child = Command::new(binary)
            .arg("--serve")
            .arg(clocks_per_bit.to_string())
            // Rust's shortest round-trip form: the harness reads the same double.
            .arg(format!("{send_period:?}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let to = BufWriter::new(child.stdin.take().expect("piped"));
        let from = BufReader::new(child.stdout.take().expect("piped"));
        Ok(VerilatedCore {
            child,
            to,
            from,
            received: vec![],
            quiet: true,
            cycles: 0,
            framing_errors: 0,
            boot: None,
        })
    }

    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.to.write_all(b"b")?;
        self.to.write_all(&(bytes.len() as u32).to_le_bytes())?;
        self.to.write_all(bytes)?;
        self.quiet = false;
        Ok(())
    }

    /// Runs `cycles` clock cycles.
    pub fn run(&mut self, cycles: u64) -> io::Result<()> {
        self.command(b'r', cycles).map(|_| ())
    }

    /// Runs up to `cycles` clock cycles, stopping once quiet; returns the
    /// cycles run.
    pub fn run_until_quiet(&mut self, cycles: u64) -> io::Result<u64> {
        self.command(b'u', cycles)
    }

    fn command(&mut self, command: u8, cycles: u64) -> io::Result<u64> {
        self.to.write_all(&[command])?;
        self.to.write_all(&cycles.to_le_bytes())?;
        self.to.flush()?;
        let mut head = [0u8; 18];
        self.from.read_exact(&mut head)?;
        let ran = u64::from_le_bytes(head[0..8].try_into().unwrap());
        self.boot = (head[9] != 0xFF).then_some(head[9]);
        self.framing_errors += u32::from_le_bytes(head[10..14].try_into().unwrap()) as u64;
        let count = u32::from_le_bytes(head[14..18].try_into().unwrap()) as usize;
        self.cycles += ran;
        let start = self.received.len();
        self.received.resize(start + count, 0);
        self.from.read_exact(&mut self.received[start..])?;
        self.quiet = head[8] != 0;
        Ok(ran)
    }

    /// As `CoreDriver::quiet`: stepping would change nothing but idle timers.
    pub fn quiet(&self) -> bool {
        self.quiet
    }

    pub fn take_received(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.received)
    }

    /// Clock cycles run since the start (the reset cycle not counted).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Bytes from the core with a bad stop bit (never expected).
    pub fn framing_errors(&self) -> u64 {
        self.framing_errors
    }

    /// The flash image the core raised SB_WARMBOOT's BOOT for, if it did.
    pub fn boot(&self) -> Option<u8> {
        self.boot
    }
}

impl Drop for VerilatedCore {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
