//! The simulated board: the complete gateware core (UART included, bit by
//! bit) run cycle by cycle behind a pseudo-terminal, so that `nonohost` talks
//! to it with the same serial-port code it uses for a real Alchitry Cu.
//!
//! Only the UART's clocks per bit differ from the board build (a few clocks
//! instead of 10 417), so a byte costs tens of cycles instead of 104 000.
//! When the line is quiet and the core has nothing to do, the simulation
//! sleeps instead of stepping; after a short real-time silence it runs the
//! core's idle timeout once, as the real line's silence would.

pub mod flags;

use nonogram_hdl::bench;
use nonogram_hdl::clue_core::ClueCore;
use nonogram_hdl::core::NonogramCore;
use nonogram_hdl::driver::{CoreDriver, SerialCore};

pub use nonogram_hdl::board_model::Engine;
use nonogram_hdl::protocol::IDLE_TIMEOUT_BITS;
use serialport::{SerialPort, TTYPort};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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

/// Figures of a running simulated board.
#[derive(Debug, Default)]
pub struct Stats {
    cycles: AtomicU64,
    busy_nanos: AtomicU64,
    bytes_in: AtomicU64,
    bytes_out: AtomicU64,
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
    pub fn bytes_out(&self) -> u64 {
        self.bytes_out.load(Ordering::Relaxed)
    }
}

/// A simulated board serving a pseudo-terminal, on its own thread.
pub struct SimBoard {
    path: String,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<io::Result<()>>>,
    // Holding the terminal's far end open keeps the pty alive between clients.
    _far_end: TTYPort,
}

impl SimBoard {
    /// Starts a board with the DNF engine (the default bitstream) on a new
    /// pseudo-terminal.
    pub fn spawn(faults: Faults) -> io::Result<SimBoard> {
        SimBoard::spawn_engine(Engine::Dnf, faults)
    }

    /// Starts a board running the core of `engine`'s bitstream.
    pub fn spawn_engine(engine: Engine, faults: Faults) -> io::Result<SimBoard> {
        SimBoard::spawn_recording(engine, faults, None)
    }

    /// As [`SimBoard::spawn_engine`], recording every simulated cycle of the
    /// core into the VCD file `waveform`, if given (it grows by about a
    /// kilobyte a cycle while the core is busy).
    pub fn spawn_recording(
        engine: Engine,
        faults: Faults,
        waveform: Option<PathBuf>,
    ) -> io::Result<SimBoard> {
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
                    match engine {
                        Engine::Dnf => serve::<NonogramCore>(near, faults, &stats, &stop),
                        Engine::Clues => serve::<ClueCore>(near, faults, &stats, &stop),
                    }
                })?
        };
        Ok(SimBoard {
            path,
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

/// Cycles stepped between looks at the pseudo-terminal while busy.
const BATCH: u32 = 512;

fn serve<C: SerialCore>(
    mut port: TTYPort,
    faults: Faults,
    stats: &Stats,
    stop: &AtomicBool,
) -> io::Result<()> {
    let mut driver = CoreDriver::<C>::with_core(SIM_CLOCKS_PER_BIT);
    driver.set_send_rate_error(faults.rate_error);
    let idle_cycles = IDLE_TIMEOUT_BITS as u64 * SIM_CLOCKS_PER_BIT as u64 + 16;
    let mut buffer = [0u8; 4096];
    let mut received = 0u64;
    let mut quiet_since: Option<Instant> = None;
    let mut idle_done = true;
    while !stop.load(Ordering::Relaxed) {
        // Take what the host wrote. Busy: just look; quiet: wait a little.
        let quiet = driver.quiet();
        let n = if quiet {
            read_some(&mut port, &mut buffer)?
        } else {
            read_ready(&mut port, &mut buffer)?
        };
        for &byte in &buffer[..n] {
            received += 1;
            if faults.drop_every.is_some_and(|k| received % k == 0) {
                continue;
            }
            let byte = if faults.corrupt_every.is_some_and(|k| received % k == 0) {
                byte ^ 0x10
            } else {
                byte
            };
            driver.send(&[byte]);
        }
        stats.bytes_in.fetch_add(n as u64, Ordering::Relaxed);
        if n > 0 || !quiet {
            quiet_since = None;
            idle_done = false;
            run(&mut driver, BATCH as u64, stats);
        } else if !idle_done {
            // The line has gone quiet: let the core see the silence once.
            let since = *quiet_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= QUIET_BEFORE_IDLE {
                run(&mut driver, idle_cycles, stats);
                idle_done = true;
            }
        }
        // So that a waveform is readable whenever the board is stopped.
        bench::flush_waveform()?;
        let out = driver.take_received();
        if !out.is_empty() && !faults.silent {
            for byte in &out {
                if !faults.reply_delay.is_zero() {
                    std::thread::sleep(faults.reply_delay);
                }
                port.write_all(std::slice::from_ref(byte))?;
            }
            port.flush()?;
            stats.bytes_out.fetch_add(out.len() as u64, Ordering::Relaxed);
        }
    }
    Ok(())
}

fn run<C: SerialCore>(driver: &mut CoreDriver<C>, cycles: u64, stats: &Stats) {
    let start = Instant::now();
    for _ in 0..cycles {
        driver.step();
    }
    stats.cycles.fetch_add(cycles, Ordering::Relaxed);
    stats
        .busy_nanos
        .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
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
    if port.bytes_to_read().map_err(io::Error::from)? == 0 {
        return Ok(0);
    }
    read_some(port, buffer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nonogram_hdl::model;
    use nonogram_hdl::options::LineOptions;
    use nonogram_hdl::protocol::{decode_reply, encode_board};

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
            if decode_reply(&reply).is_ok() {
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

    #[test]
    fn answers_through_the_pseudo_terminal_and_reports_its_speed() {
        let board = SimBoard::spawn(Faults::default()).unwrap();
        let (rows, columns, bytes) = heart();
        let reply = exchange(&board, &bytes, Duration::from_secs(60)).expect("a reply");
        let (reply, _) = decode_reply(&reply).unwrap();
        let verdict = model::solve_clues(&rows, &columns);
        assert_eq!(reply.cells, verdict.cells);
        assert_eq!(reply.cycles as u64, verdict.cycles);
        assert!(board.stats().cycles() > 0 && board.stats().cycles_per_second() > 0.0);
        println!(
            "{} cycles at {:.0} cycles/s",
            board.stats().cycles(),
            board.stats().cycles_per_second()
        );
        board.stop().unwrap();
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
            reply.outcome >= nonogram_hdl::protocol::status::outcome::OVER_CAPACITY,
            "{reply:?}"
        );
    }
}
