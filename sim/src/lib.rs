//! The simulated board: the complete gateware core (UART included, bit by
//! bit) run cycle by cycle behind a pseudo-terminal, so that `nonohost` talks
//! to it with the same serial-port code it uses for a real Alchitry Cu.
//!
//! Only the UART's clocks per bit differ from the board build (a few clocks
//! instead of 10 417), so a byte costs tens of cycles instead of 104 000.
//! When the line is quiet and the core has nothing to do, the simulation
//! sleeps instead of stepping; after a short real-time silence it runs the
//! core's idle timeout once, as the real line's silence would.
//!
//! Two back ends step the core: the core's emitted Verilog under Verilator
//! (`verilated.rs`; built once and cached, used whenever verilator is
//! installed) and RustHDL's own simulation (always there; the only one that
//! records waveforms). Both drive the pins the same way, cycle for cycle,
//! and the Verilator cross-check tests hold them to the same bytes.

pub mod flags;
pub mod verilated;

use nonogram_hdl::bench;
use nonogram_hdl::bench::driver::{CoreDriver, SerialCore};
use nonogram_hdl::clue::core::{ClueCore, ProbingCore};
use nonogram_hdl::colour::core::ColourCore;
use nonogram_hdl::dnf::core::NonogramCore;

pub use nonogram_hdl::board_model::Engine;
use nonogram_hdl::link::protocol::IDLE_TIMEOUT_BITS;
use serialport::{SerialPort, TTYPort};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use verilated::VerilatedCore;

/// Clocks per UART bit in the simulation (the gateware's receiver needs ≥ 4).
pub const SIM_CLOCKS_PER_BIT: u32 = 4;

/// How the simulated board misbehaves, for tests. The default behaves.
#[derive(Clone, Debug, Default)]
pub struct Faults {
    /// Drop every n-th byte from the host.
    pub drop_every: Option<u64>,
    /// Flip a bit in every n-th byte from the host.
    pub corrupt_every: Option<u64>,
    /// Host bytes reach the core this much slow (positive) or fast
    /// (negative), as with a board clock a few percent off.
    pub rate_error: f64,
    /// Never send anything back.
    pub silent: bool,
    /// Hold each reply byte back this long.
    pub reply_delay: Duration,
}

/// What steps the simulated core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// RustHDL's simulation of the core (about 100 k cycles/s).
    RustHdl,
    /// The core's emitted Verilog, Verilated (millions of cycles/s).
    Verilator,
}

impl Backend {
    /// `NONOGRAM_SIM_BACKEND` (`rusthdl` or `verilator`) when set, else
    /// Verilator when it is installed, else RustHDL. Any other value
    /// (besides `auto` and empty) is warned about on stderr, once.
    pub fn auto() -> Backend {
        let chosen = || {
            if verilated::verilator_version().is_some() {
                Backend::Verilator
            } else {
                Backend::RustHdl
            }
        };
        match std::env::var("NONOGRAM_SIM_BACKEND").as_deref() {
            Ok("rusthdl") => Backend::RustHdl,
            Ok("verilator") => Backend::Verilator,
            Ok("" | "auto") | Err(std::env::VarError::NotPresent) => chosen(),
            Ok(other) => {
                let backend = chosen();
                static WARNED: std::sync::Once = std::sync::Once::new();
                WARNED.call_once(|| {
                    eprintln!(
                        "warning: NONOGRAM_SIM_BACKEND={other:?} is neither rusthdl nor verilator; using {}",
                        backend.name()
                    )
                });
                backend
            }
            Err(std::env::VarError::NotUnicode(_)) => {
                let backend = chosen();
                eprintln!(
                    "warning: NONOGRAM_SIM_BACKEND is not UTF-8; using {}",
                    backend.name()
                );
                backend
            }
        }
    }

    /// A `--backend` flag's value: `verilator`, `rusthdl`, or anything else
    /// (`auto`) for [`Backend::auto`].
    pub fn from_flag(flag: &str) -> Backend {
        match flag {
            "verilator" => Backend::Verilator,
            "rusthdl" => Backend::RustHdl,
            _ => Backend::auto(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::RustHdl => "RustHDL",
            Backend::Verilator => "Verilator",
        }
    }
}

/// Builds (or finds cached) the Verilated core of `engine` at the
/// simulation's clocks per bit, saying so on stderr when that takes a while.
pub fn verilated_core(engine: Engine) -> Result<PathBuf, String> {
    let verilog = verilated::core_verilog(engine, SIM_CLOCKS_PER_BIT);
    if let Some(binary) = verilated::cached(&verilog, verilated::Flavor::Rtl, engine) {
        return Ok(binary);
    }
    eprintln!(
        "nonogram-sim: building the Verilated {} core, once (seconds to a minute; cached in {})",
        engine.name(),
        verilated::cache_root().display()
    );
    let built = verilated::build(&verilog, verilated::Flavor::Rtl, engine)?;
    eprintln!("nonogram-sim: built in {:.0} s", built.build_seconds);
    Ok(built.binary)
}

/// Figures of a running simulated board.
#[derive(Debug, Default)]
pub struct Stats {
    cycles: AtomicU64,
    busy_nanos: AtomicU64,
    bytes_in: AtomicU64,
    bytes_out: AtomicU64,
    warm_boots: AtomicU64,
    /// The flash image running now.
    image: AtomicU8,
}

impl Stats {
    /// Clock cycles simulated.
    pub fn cycles(&self) -> u64 {
        self.cycles.load(Ordering::Relaxed)
    }
    /// Wall time spent stepping the core.
    pub fn busy(&self) -> Duration {
        Duration::from_nanos(self.busy_nanos.load(Ordering::Relaxed))
    }
    /// Simulated cycles per second of stepping.
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles() as f64 / self.busy().as_secs_f64().max(1e-9)
    }
    pub fn bytes_in(&self) -> u64 {
        self.bytes_in.load(Ordering::Relaxed)
    }
    /// Times a SWITCH rebooted the board into another flash image.
    pub fn warm_boots(&self) -> u64 {
        self.warm_boots.load(Ordering::Relaxed)
    }
    /// The engine of the flash image running now.
    pub fn engine(&self) -> Engine {
        Engine::of_image(self.image.load(Ordering::Relaxed))
    }
    pub fn bytes_out(&self) -> u64 {
        self.bytes_out.load(Ordering::Relaxed)
    }
}

/// A simulated board serving a pseudo-terminal, on its own thread.
pub struct SimBoard {
    path: String,
    backend: Backend,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<io::Result<()>>>,
    // Holding the terminal's far end open keeps the pty alive between clients.
    _far_end: TTYPort,
}

impl SimBoard {
    /// Starts a board with the DNF engine (the default bitstream) on a new
    /// pseudo-terminal, on the [`Backend::auto`] back end.
    pub fn spawn(faults: Faults) -> io::Result<SimBoard> {
        SimBoard::spawn_engine(Engine::Dnf, faults)
    }

    /// Starts a board running the core of `engine`'s bitstream, on the
    /// [`Backend::auto`] back end.
    pub fn spawn_engine(engine: Engine, faults: Faults) -> io::Result<SimBoard> {
        SimBoard::spawn_on(Backend::auto(), engine, faults, None)
    }

    /// Starts a board on `backend`, running first the flash image of
    /// `engine` (image 0, DNF, is the one a real board powers up in). Like
    /// the real flash it holds the images of `image::FLASH`, and a SWITCH
    /// reboots it into another. With Verilator, their cores are built
    /// first unless cached; if that fails, the board says why on stderr and runs on
    /// RustHDL instead. `waveform`: record every simulated cycle of the
    /// core into this VCD file (RustHDL only; about a kilobyte a busy cycle).
    pub fn spawn_on(
        backend: Backend,
        engine: Engine,
        faults: Faults,
        waveform: Option<PathBuf>,
    ) -> io::Result<SimBoard> {
        if !engine.in_flash() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("the flash holds no {} image to start in", engine.name()),
            ));
        }
        // The Verilated core of each image the flash holds, by image.
        let every_image = || {
            Engine::ALL
                .into_iter()
                .map(|e| e.in_flash().then(|| verilated_core(e)).transpose())
                .collect::<Result<Vec<_>, String>>()
        };
        let verilated = match backend {
            Backend::Verilator if waveform.is_none() => match every_image() {
                Ok(binaries) => Some(binaries),
                Err(e) => {
                    eprintln!(
                        "nonogram-sim: the Verilator back end is unavailable ({e}); running on RustHDL"
                    );
                    None
                }
            },
            _ => None,
        };
        let verilated_used = verilated.is_some();
        let (mut near, far) = TTYPort::pair().map_err(io::Error::from)?;
        let path = far
            .name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::Other, "the pseudo-terminal has no name"))?;
        near.set_timeout(Duration::from_millis(1))
            .map_err(io::Error::from)?;
        let stats = Arc::new(Stats::default());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (stats, stop) = (stats.clone(), stop.clone());
            std::thread::Builder::new()
                .name("nonogram-sim".into())
                .spawn(move || {
                    if let Some(path) = &waveform {
                        bench::record_waveform(path);
                    }
                    let rate_error = faults.rate_error;
                    let boot = |engine: Engine| -> io::Result<Box<dyn SimCore>> {
                        let binary = verilated
                            .as_ref()
                            .and_then(|b| b[engine.image() as usize].as_ref());
                        Ok(match binary {
                            Some(binary) => {
                                Box::new(VerilatedCore::start(binary, SIM_CLOCKS_PER_BIT, rate_error)?)
                            }
                            None => rusthdl_core(engine, rate_error),
                        })
                    };
                    serve(boot, engine, near, faults, &stats, &stop)
                })?
        };
        Ok(SimBoard {
            path,
            backend: if verilated_used {
                Backend::Verilator
            } else {
                Backend::RustHdl
            },
            stats,
            stop,
            thread: Some(thread),
            _far_end: far,
        })
    }

    /// The pseudo-terminal to open, as a serial port.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What steps the core.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// False once the board's thread has ended (an I/O error or a panic).
    pub fn running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Stops the board; returns the error that stopped it early, if any.
    pub fn stop(mut self) -> io::Result<()> {
        self.halt()
    }

    fn halt(&mut self) -> io::Result<()> {
        self.stop.store(true, Ordering::Relaxed);
        match self.thread.take() {
            Some(t) => t
                .join()
                .unwrap_or_else(|_| Err(io::Error::new(io::ErrorKind::Other, "the simulation panicked"))),
            None => Ok(()),
        }
    }
}

impl Drop for SimBoard {
    fn drop(&mut self) {
        let _ = self.halt();
    }
}

/// Real-time silence after which the core is shown an idle line. Longer
/// than a busy host's pause between two writes, so a slow host never looks
/// like a broken stream; a client that wants the board to forget a half
/// message waits longer than this (`nonohost` does in `--sim` mode).
pub const QUIET_BEFORE_IDLE: Duration = Duration::from_millis(50);

/// The slowest pace the simulation is expected to keep, even on a loaded
/// machine (it runs about 80 000 cycles/s on one free core).
pub const SLOWEST_CYCLES_PER_SECOND: u64 = 10_000;

/// How long a client should wait for the reply after writing `bytes` to the
/// simulated board: every byte costs 10 bits of SIM_CLOCKS_PER_BIT cycles,
/// at the slowest expected pace, as do the solve's `solve_cycles` (0 when
/// small), plus 5 s for the solve and the reply.
pub fn reply_allowance(bytes: u64, solve_cycles: u64) -> Duration {
    let cycles = bytes * 10 * SIM_CLOCKS_PER_BIT as u64 + solve_cycles;
    Duration::from_secs(5) + Duration::from_secs_f64(cycles as f64 / SLOWEST_CYCLES_PER_SECOND as f64)
}

/// A simulated core behind its UART, on either back end: bytes in, bytes
/// out, clock cycles run.
pub trait SimCore: Send {
    fn send(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Runs `cycles` clock cycles.
    fn run(&mut self, cycles: u64) -> io::Result<()>;
    /// Runs up to `cycles` cycles, stopping once quiet; returns the cycles run.
    fn run_until_quiet(&mut self, cycles: u64) -> io::Result<u64>;
    /// As [`CoreDriver::quiet`]: stepping would change nothing but idle timers.
    fn quiet(&self) -> bool;
    /// The bytes the core has sent since the last call.
    fn take_received(&mut self) -> Vec<u8>;
    /// Clock cycles run since the core was made.
    fn cycles(&self) -> u64;
    /// Bytes from the core with a bad stop bit (never expected).
    fn framing_errors(&self) -> u64;
    /// Cycles worth running between looks at the outside world: a few
    /// milliseconds' worth.
    fn batch(&self) -> u64;
    /// The flash image the core raised SB_WARMBOOT's BOOT for, if it did.
    fn boot(&self) -> Option<u8>;
}

impl<C: SerialCore + Send> SimCore for CoreDriver<C> {
    fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        CoreDriver::send(self, bytes);
        Ok(())
    }
    fn run(&mut self, cycles: u64) -> io::Result<()> {
        for _ in 0..cycles {
            self.step();
        }
        Ok(())
    }
    fn run_until_quiet(&mut self, cycles: u64) -> io::Result<u64> {
        let mut ran = 0;
        while ran < cycles && !CoreDriver::quiet(self) {
            self.step();
            ran += 1;
        }
        Ok(ran)
    }
    fn quiet(&self) -> bool {
        CoreDriver::quiet(self)
    }
    fn take_received(&mut self) -> Vec<u8> {
        CoreDriver::take_received(self)
    }
    fn cycles(&self) -> u64 {
        CoreDriver::cycles(self)
    }
    fn framing_errors(&self) -> u64 {
        CoreDriver::framing_errors(self)
    }
    fn batch(&self) -> u64 {
        512
    }
    fn boot(&self) -> Option<u8> {
        CoreDriver::boot(self)
    }
}

impl SimCore for VerilatedCore {
    fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        VerilatedCore::send(self, bytes)
    }
    fn run(&mut self, cycles: u64) -> io::Result<()> {
        VerilatedCore::run(self, cycles)
    }
    fn run_until_quiet(&mut self, cycles: u64) -> io::Result<u64> {
        VerilatedCore::run_until_quiet(self, cycles)
    }
    fn quiet(&self) -> bool {
        VerilatedCore::quiet(self)
    }
    fn take_received(&mut self) -> Vec<u8> {
        VerilatedCore::take_received(self)
    }
    fn cycles(&self) -> u64 {
        VerilatedCore::cycles(self)
    }
    fn framing_errors(&self) -> u64 {
        VerilatedCore::framing_errors(self)
    }
    fn batch(&self) -> u64 {
        16_384
    }
    fn boot(&self) -> Option<u8> {
        VerilatedCore::boot(self)
    }
}

/// A core of `engine` on RustHDL, its UART at [`SIM_CLOCKS_PER_BIT`], the
/// host's bytes arriving at a rate off by `rate_error`.
pub fn rusthdl_core(engine: Engine, rate_error: f64) -> Box<dyn SimCore> {
    fn make<C: SerialCore + Send + 'static>(rate_error: f64) -> Box<dyn SimCore> {
        let mut driver = CoreDriver::<C>::with_core(SIM_CLOCKS_PER_BIT);
        driver.set_send_rate_error(rate_error);
        Box::new(driver)
    }
    match engine {
        Engine::Dnf => make::<NonogramCore>(rate_error),
        Engine::Clues => make::<ClueCore>(rate_error),
        Engine::Probing => make::<ProbingCore>(rate_error),
        Engine::Colour => make::<ColourCore>(rate_error),
    }
}

/// A core of `engine` on the Verilator back end, built first unless cached.
pub fn verilator_core(engine: Engine, rate_error: f64) -> io::Result<Box<dyn SimCore>> {
    let binary = verilated_core(engine).map_err(|e| io::Error::new(io::ErrorKind::Other, e))?;
    Ok(Box::new(VerilatedCore::start(
        &binary,
        SIM_CLOCKS_PER_BIT,
        rate_error,
    )?))
}

/// Serves the port with the core of `engine`, and with a fresh core of
/// another image (from `boot`) whenever the running one raises BOOT.
fn serve(
    boot: impl Fn(Engine) -> io::Result<Box<dyn SimCore>>,
    engine: Engine,
    mut port: TTYPort,
    faults: Faults,
    stats: &Stats,
    stop: &AtomicBool,
) -> io::Result<()> {
    let mut core = boot(engine)?;
    stats.image.store(engine as u8, Ordering::Relaxed);
    let idle_cycles = IDLE_TIMEOUT_BITS as u64 * SIM_CLOCKS_PER_BIT as u64 + 16;
    let mut buffer = [0u8; 4096];
    let mut received = 0u64;
    let mut quiet_since: Option<Instant> = None;
    let mut idle_done = true;
    while !stop.load(Ordering::Relaxed) {
        // Take what the host wrote. Busy: just look; quiet: wait a little.
        let quiet = core.quiet();
        let n = if quiet {
            read_some(&mut port, &mut buffer)?
        } else {
            read_ready(&mut port, &mut buffer)?
        };
        let mut bytes = Vec::with_capacity(n);
        for &byte in &buffer[..n] {
            received += 1;
            if faults.drop_every.is_some_and(|k| received % k == 0) {
                continue;
            }
            if faults.corrupt_every.is_some_and(|k| received % k == 0) {
                bytes.push(byte ^ 0x10);
            } else {
                bytes.push(byte);
            }
        }
        core.send(&bytes)?;
        stats.bytes_in.fetch_add(n as u64, Ordering::Relaxed);
        if n > 0 || !quiet {
            quiet_since = None;
            idle_done = false;
            // Never past quiet: with the host still writing, running on
            // would show the core an idle line the real one never has.
            let batch = core.batch();
            run(core.as_mut(), batch, true, stats)?;
        } else if !idle_done {
            // The line has gone quiet: let the core see the silence once.
            let since = *quiet_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= QUIET_BEFORE_IDLE {
                run(core.as_mut(), idle_cycles, false, stats)?;
                idle_done = true;
            }
        }
        // So that a waveform is readable whenever the board is stopped.
        bench::flush_waveform()?;
        let out = core.take_received();
        if !out.is_empty() && !faults.silent {
            for byte in &out {
                if !faults.reply_delay.is_zero() {
                    std::thread::sleep(faults.reply_delay);
                }
                match port.write_all(std::slice::from_ref(byte)) {
                    // No client has the terminal open: the byte goes nowhere,
                    // as it would on a real line with nobody listening.
                    Err(e) if e.raw_os_error() == Some(5) => {}
                    result => result?,
                }
            }
            let _ = port.flush();
            stats.bytes_out.fetch_add(out.len() as u64, Ordering::Relaxed);
        }
        // A warm boot: the FPGA reconfigures from the image asked for,
        // every register and memory starting over.
        if let Some(image) = core.boot() {
            core = boot(Engine::of_image(image))?;
            stats.image.store(image, Ordering::Relaxed);
            stats.warm_boots.fetch_add(1, Ordering::Relaxed);
            idle_done = true;
            quiet_since = None;
        }
    }
    Ok(())
}

fn run(core: &mut dyn SimCore, cycles: u64, until_quiet: bool, stats: &Stats) -> io::Result<()> {
    let start = Instant::now();
    let ran = if until_quiet {
        core.run_until_quiet(cycles)?
    } else {
        core.run(cycles)?;
        cycles
    };
    stats.cycles.fetch_add(ran, Ordering::Relaxed);
    stats
        .busy_nanos
        .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
    Ok(())
}

/// Reads what is there, waiting up to the port's timeout for something.
fn read_some(port: &mut TTYPort, buffer: &mut [u8]) -> io::Result<usize> {
    match port.read(buffer) {
        Ok(n) => Ok(n),
        Err(e) if e.kind() == io::ErrorKind::TimedOut || e.kind() == io::ErrorKind::WouldBlock => Ok(0),
        // No client has the terminal open: nothing to read.
        Err(e) if e.raw_os_error() == Some(5) => {
            std::thread::sleep(Duration::from_millis(5));
            Ok(0)
        }
        Err(e) => Err(e),
    }
}

/// Reads only what is already there.
fn read_ready(port: &mut TTYPort, buffer: &mut [u8]) -> io::Result<usize> {
    match port.bytes_to_read() {
        Ok(0) => Ok(0),
        // Something to read; or the count failed, as it does when no client
        // has the terminal open (between two of a client's opens, say):
        // read_some tells that apart from a real error. (Returning this
        // error ended the board's thread, and the client's next open failed
        // with a busy port.)
        _ => read_some(port, buffer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nonogram_hdl::dnf::model;
    use nonogram_hdl::dnf::options::LineOptions;
    use nonogram_hdl::link::protocol::{decode_reply, encode_board};

    fn exchange(board: &SimBoard, bytes: &[u8], timeout: Duration) -> Option<Vec<u8>> {
        let mut port = serialport::new(board.path(), 9600)
            .timeout(Duration::from_millis(20))
            .open()
            .unwrap();
        std::thread::sleep(QUIET_BEFORE_IDLE * 2);
        port.write_all(bytes).unwrap();
        let deadline = Instant::now() + timeout;
        let mut reply = vec![];
        let mut buffer = [0u8; 1024];
        while Instant::now() < deadline {
            match port.read(&mut buffer) {
                Ok(n) => reply.extend_from_slice(&buffer[..n]),
                Err(e) if e.kind() == io::ErrorKind::TimedOut => {}
                Err(e) => panic!("{e}"),
            }
            if nonogram_hdl::clue::clue_protocol::decode_any_reply(&reply).is_ok() {
                return Some(reply);
            }
        }
        None
    }

    fn heart() -> (Vec<Vec<usize>>, Vec<Vec<usize>>, Vec<u8>) {
        let rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
        let columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
        let lines = rows
            .iter()
            .map(|c| LineOptions::new(c, 7))
            .chain(columns.iter().map(|c| LineOptions::new(c, 6)));
        let mut bytes = vec![];
        encode_board(6, 7, lines, false, &mut bytes);
        (rows, columns, bytes)
    }

    /// The back ends to test: RustHDL, and Verilator when installed (CI
    /// installs it and must test it).
    fn backends() -> Vec<Backend> {
        let mut backends = vec![Backend::RustHdl];
        if verilated::verilator_version().is_some() {
            backends.push(Backend::Verilator);
        } else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must test the Verilator back end"
            );
            eprintln!("skipped the Verilator back end: verilator is not installed");
        }
        backends
    }

    #[test]
    fn answers_through_the_pseudo_terminal_and_reports_its_speed() {
        let (rows, columns, bytes) = heart();
        let verdict = model::solve_clues(&rows, &columns);
        for backend in backends() {
            for engine in [Engine::Dnf, Engine::Clues] {
                let board = SimBoard::spawn_on(backend, engine, Faults::default(), None).unwrap();
                assert_eq!(board.backend(), backend);
                let bytes = match engine {
                    Engine::Dnf => bytes.clone(),
                    _ => {
                        let mut v2 = vec![];
                        nonogram_hdl::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut v2);
                        v2
                    }
                };
                let reply = exchange(&board, &bytes, Duration::from_secs(60)).expect("a reply");
                let cells = match engine {
                    Engine::Dnf => {
                        let (reply, _) = decode_reply(&reply).unwrap();
                        assert_eq!(reply.cycles as u64, verdict.cycles);
                        reply.cells
                    }
                    _ => {
                        let (reply, _) = nonogram_hdl::clue::clue_protocol::decode_any_reply(&reply).unwrap();
                        reply.cells
                    }
                };
                assert_eq!(cells, verdict.cells, "{backend:?} {engine:?}");
                assert!(board.stats().cycles() > 0 && board.stats().cycles_per_second() > 0.0);
                println!(
                    "{} {engine:?}: {} cycles at {:.0} cycles/s",
                    backend.name(),
                    board.stats().cycles(),
                    board.stats().cycles_per_second()
                );
                board.stop().unwrap();
            }
        }
    }

    #[test]
    fn a_silent_board_sends_nothing_and_a_corrupting_link_gets_an_error_reply() {
        let (_, _, bytes) = heart();
        let silent = SimBoard::spawn(Faults {
            silent: true,
            ..Faults::default()
        })
        .unwrap();
        assert_eq!(exchange(&silent, &bytes, Duration::from_secs(3)), None);
        let noisy = SimBoard::spawn(Faults {
            corrupt_every: Some(7),
            ..Faults::default()
        })
        .unwrap();
        let reply = exchange(&noisy, &bytes, Duration::from_secs(60)).expect("an error reply, not silence");
        let (reply, _) = decode_reply(&reply).unwrap();
        assert!(
            reply.outcome >= nonogram_hdl::link::protocol::status::outcome::OVER_CAPACITY,
            "{reply:?}"
        );
    }
}
