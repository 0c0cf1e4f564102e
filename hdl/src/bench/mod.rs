//! Helpers for testbenches and the simulated board: step a circuit by hand
//! (far faster than RustHDL's threaded `Simulation`), drive a UART line, and
//! check emitted Verilog with yosys. [`driver`] steps a whole core behind
//! its UART; [`boards`] holds the test boards and random streams.

pub mod boards;
pub mod driver;
#[cfg(test)]
pub(crate) mod reply;

use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_dump, write_vcd_header, VCDProbe};
use rust_hdl::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use boards::xorshift;

/// One clock cycle: the clock goes low (inputs set since the last cycle
/// settle), then rises (registers take their inputs). `clock` picks the
/// circuit's clock input. When this thread records a waveform, both halves
/// of the cycle go into it.
pub fn tick<B: Block>(uut: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    for level in [false, true] {
        clock(uut).next = Clock { clk: level };
        assert!(simulate(uut, 1000), "the circuit did not settle");
        WAVEFORM.with(|w| w.borrow_mut().record(uut));
    }
}

/// One clock cycle in a waveform, in picoseconds (the VCD's unit): the
/// board's 100 MHz.
const CYCLE_PS: u64 = 10_000;

/// The environment variable that makes every testbench record a waveform:
/// `NONOGRAM_VCD=DIR cargo test ...` writes `DIR/<test name>.vcd`.
pub const VCD_ENV: &str = "NONOGRAM_VCD";

/// A VCD file being written by this thread's `tick`s.
enum Waveform {
    /// Not yet decided: look at `NONOGRAM_VCD` at the first tick.
    Unset,
    Off,
    /// To be opened at the first tick, with that circuit's signals.
    To(PathBuf),
    On {
        probe: Option<VCDProbe<SharedFile>>,
        file: SharedFile,
        /// The circuit recorded (a testbench that steps another circuit on
        /// the same thread leaves it out).
        circuit: &'static str,
        half_cycles: u64,
    },
}

/// The VCD file, shared between the probe that writes it and `flush_waveform`.
#[derive(Clone)]
struct SharedFile(Rc<RefCell<BufWriter<File>>>);

impl Write for SharedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

thread_local! {
    static WAVEFORM: RefCell<Waveform> = const { RefCell::new(Waveform::Unset) };
}

impl Waveform {
    fn record<B: Block>(&mut self, uut: &B) {
        if let Waveform::Unset = self {
            *self = match std::env::var_os(VCD_ENV) {
                Some(dir) => {
                    let thread = std::thread::current();
                    let name = thread.name().unwrap_or("waveform").replace("::", ".");
                    Waveform::To(Path::new(&dir).join(format!("{name}.vcd")))
                }
                None => Waveform::Off,
            };
        }
        if let Waveform::To(path) = self {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let file = File::create(&*path)
                .unwrap_or_else(|e| panic!("cannot write the waveform {}: {e}", path.display()));
            let file = SharedFile(Rc::new(RefCell::new(BufWriter::new(file))));
            let probe = write_vcd_dump(write_vcd_header(file.clone(), uut), uut);
            *self = Waveform::On {
                probe: Some(probe),
                file,
                circuit: std::any::type_name::<B>(),
                half_cycles: 0,
            };
            return;
        }
        if let Waveform::On {
            probe,
            circuit,
            half_cycles,
            ..
        } = self
        {
            if *circuit != std::any::type_name::<B>() {
                return;
            }
            *half_cycles += 1;
            let mut vcd = probe.take().expect("the probe is put back after every change");
            vcd.timestamp(*half_cycles * CYCLE_PS / 2)
                .expect("writing the waveform");
            *probe = Some(write_vcd_change(vcd, uut));
        }
    }
}

/// Records every cycle this thread `tick`s into a VCD file at `path` (for
/// GTKWave; signal names follow the circuit's fields), from the next tick
/// on. The file is created at that tick; call [`flush_waveform`] to make
/// what was recorded so far readable.
pub fn record_waveform(path: &Path) {
    WAVEFORM.with(|w| *w.borrow_mut() = Waveform::To(path.to_path_buf()));
}

/// Writes out what this thread's waveform has recorded so far (a no-op when
/// it records none).
pub fn flush_waveform() -> io::Result<()> {
    WAVEFORM.with(|w| match &*w.borrow() {
        Waveform::On { file, .. } => file.clone().flush(),
        _ => Ok(()),
    })
}

/// Settles combinational logic after inputs changed, without a clock edge.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 1000), "the circuit did not settle");
}

/// The level of a UART line (8N1, LSB first) carrying `bytes` back to back,
/// `bit_period` clocks per bit (fractional to model a sender off the nominal
/// rate), `lead` idle clocks first. Returns one level per clock.
pub fn uart_waveform(bytes: &[u8], bit_period: f64, lead: usize) -> Vec<bool> {
    let total = lead + (bytes.len() as f64 * 10.0 * bit_period).ceil() as usize + 2 * bit_period as usize + 2;
    (0..total)
        .map(|t| {
            if t < lead {
                return true;
            }
            let bit = ((t - lead) as f64 / bit_period) as usize;
            let (byte, pos) = (bit / 10, bit % 10);
            match bytes.get(byte) {
                None => true,
                Some(_) if pos == 0 => false,
                Some(_) if pos == 9 => true,
                Some(b) => b >> (pos - 1) & 1 == 1,
            }
        })
        .collect()
}

/// Runs yosys on the Verilog of `uut` (as `name`): it must parse, have no
/// latches or undriven nets, and synthesise for the iCE40. Returns the yosys
/// log. Panics with the log when yosys fails.
///
/// Where yosys is not installed the check is skipped with a notice, unless
/// the `CI` environment variable is set (CI installs yosys and must check).
pub fn yosys_check<B: Block>(uut: &B, name: &str) -> Option<String> {
    let verilog = generate_verilog(uut);
    if std::process::Command::new("yosys").arg("-V").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must check the Verilog: install yosys"
        );
        eprintln!("skipped the yosys check of {name}: yosys is not installed (apt-get install yosys)");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("nonogram-yosys-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, verilog).unwrap();
    let script = format!(
        "read_verilog {}; hierarchy -check -top top; proc; check -assert; synth_ice40 -top top; stat",
        file.display()
    );
    let out = std::process::Command::new("yosys")
        .arg("-q")
        .arg("-p")
        .arg(&script)
        .arg("-l")
        .arg(dir.join("yosys.log"))
        .output()
        .expect("yosys is not installed (apt-get install yosys)");
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "yosys rejected {name}:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        log.lines().rev().take(30).collect::<Vec<_>>().join("\n")
    );
    Some(log)
}

/// Number of cells of the given type in a yosys `stat` log (0 if absent).
pub fn yosys_cell_count(log: &str, cell: &str) -> usize {
    log.lines()
        .rev()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            (words.next() == Some(cell))
                .then(|| words.next()?.parse().ok())
                .flatten()
        })
        .unwrap_or(0)
}

/// Simulates the Verilog of `uut` (module `top`) under Icarus Verilog with
/// the testbench `testbench` (a module `tb` that instantiates `top`), with
/// `files` written beside it for `$readmemh`. Returns what the testbench
/// printed. Skipped (None) with a notice where iverilog is not installed,
/// unless the `CI` environment variable is set.
pub fn iverilog_run<B: Block>(
    uut: &B,
    name: &str,
    testbench: &str,
    files: &[(&str, String)],
) -> Option<String> {
    if std::process::Command::new("iverilog").arg("-V").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must simulate the Verilog: install iverilog"
        );
        eprintln!(
            "skipped the Icarus simulation of {name}: iverilog is not installed (apt-get install iverilog)"
        );
        return None;
    }
    let dir = std::env::temp_dir().join(format!("nonogram-iverilog-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), generate_verilog(uut)).unwrap();
    std::fs::write(dir.join("tb.v"), testbench).unwrap();
    for (file, contents) in files {
        std::fs::write(dir.join(file), contents).unwrap();
    }
    let compile = std::process::Command::new("iverilog")
        .current_dir(&dir)
        .args(["-g2005", "-s", "tb", "-o", "sim", "tb.v", "top.v"])
        .output()
        .unwrap();
    assert!(
        compile.status.success(),
        "iverilog rejected {name}:\n{}",
        String::from_utf8_lossy(&compile.stderr)
    );
    // The output goes to files, so that a run can be waited for with a
    // deadline: Verilog whose `always @(*)` blocks feed each other glitches
    // (a default overwritten in the same block) can loop in one time step
    // for ever, where RustHDL's simulator settles.
    let stdout = std::fs::File::create(dir.join("vvp.out")).unwrap();
    let stderr = std::fs::File::create(dir.join("vvp.err")).unwrap();
    let mut vvp = std::process::Command::new("vvp")
        .current_dir(&dir)
        .arg("sim")
        .stdin(std::process::Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .unwrap();
    let limit = std::time::Duration::from_secs(ICARUS_SECONDS);
    let began = std::time::Instant::now();
    let status = loop {
        if let Some(status) = vvp.try_wait().unwrap() {
            break status;
        }
        if began.elapsed() > limit {
            vvp.kill().ok();
            vvp.wait().ok();
            panic!(
                "vvp did not finish {name} in {ICARUS_SECONDS} s (its output so far: {}); \
                 a zero-delay loop between glitching always blocks?",
                dir.join("vvp.out").display()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(
        status.success(),
        "vvp failed on {name}:\n{}",
        std::fs::read_to_string(dir.join("vvp.err")).unwrap_or_default()
    );
    let out = std::fs::read_to_string(dir.join("vvp.out")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    Some(out)
}

/// The longest an Icarus run may take: the slowest (the clue solver's, with
/// probing) takes about three minutes on a loaded two-core machine.
const ICARUS_SECONDS: u64 = 1200;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::uart_rx::UartRx;

    /// A waveform names the circuit's signals and has every half cycle.
    #[test]
    fn a_testbench_records_a_readable_waveform() {
        let path = std::env::temp_dir().join(format!("nonogram-wave-{}.vcd", std::process::id()));
        let mut uut = UartRx::new(4);
        uut.connect_all();
        record_waveform(&path);
        uut.rx.next = true;
        for t in 0..100 {
            uut.rx.next = !(8..12).contains(&t);
            tick(&mut uut, |u| &mut u.clock);
        }
        flush_waveform().unwrap();
        let vcd = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(vcd.contains("$enddefinitions"), "{vcd}");
        for signal in ["rx", "framing_error", "valid"] {
            assert!(
                vcd.contains(&format!(" {signal} $end")),
                "no {signal} in the waveform"
            );
        }
        // 200 half cycles, 5 ns apart, from 0.
        assert!(vcd.contains("#995000\n"), "100 cycles at 10 ns");
    }
}
