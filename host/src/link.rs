//! The serial link to the board: finding and opening the port, sending a
//! board's byte stream with a progress bar, waiting for the reply and
//! decoding it. Everything past opening works on any
//! [`serialport::SerialPort`], so the same code drives the real board, the
//! simulated board and the [`crate::fake::ModelBoard`] on a pseudo-terminal.

use crate::puzzle::Puzzle;
use indicatif::{ProgressBar, ProgressStyle};
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::clue_protocol::decode_any_reply as decode_reply;
use nonogram_hdl::link::protocol::{query_bytes, Reply, ReplyError};
use serialport::{ClearBuffer, SerialPort, SerialPortInfo, SerialPortType};
use std::io;
use std::time::{Duration, Instant};

/// The Alchitry Cu's FTDI FT2232H.
pub const CU_VID: u16 = 0x0403;
pub const CU_PID: u16 = 0x6010;
/// Its UART is the FT2232H's interface B (interface A programs the FPGA).
pub const CU_UART_INTERFACE: u8 = 1;

/// The board's default line rate.
pub const DEFAULT_BAUD: u32 = 9600;

/// How a board is sent.
#[derive(Clone, Debug)]
pub struct LinkConfig {
    /// Line rate, for the timeouts and the chunk size (the port is set up by whoever opened it).
    pub baud: u32,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// How long to wait for the reply after the last byte; `None`: [`reply_timeout`].
    pub reply_timeout: Option<Duration>,
    /// Idle time before sending, so the board forgets any half message
    /// (it does after 80 bit times).
    pub idle_before: Duration,
    /// Give up when the port takes no byte for this long while sending;
    /// `None`: 2 s + 3 × a chunk's wire time.
    pub stall_timeout: Option<Duration>,
    /// The board behind the port is known to answer QUERY (a simulated
    /// board): no INFO reply then means it is stopped or gone, not that it
    /// runs the original design, so the send ends there.
    pub answers_query: bool,
}

impl LinkConfig {
    pub fn new(baud: u32) -> LinkConfig {
        LinkConfig {
            baud,
            progress: false,
            reply_timeout: None,
            idle_before: idle_before(baud),
            stall_timeout: None,
            answers_query: false,
        }
    }
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig::new(DEFAULT_BAUD)
    }
}

/// At least 20 ms, and at least twice the board's 80-bit idle timeout.
pub fn idle_before(baud: u32) -> Duration {
    let bits = 2 * nonogram_hdl::link::protocol::IDLE_TIMEOUT_BITS as u64;
    Duration::from_millis(20).max(Duration::from_micros(bits * 1_000_000 / baud.max(1) as u64))
}

/// What came back.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub reply: Reply,
    /// The reply's bytes as received.
    pub reply_bytes: Vec<u8>,
    pub bytes_sent: usize,
    /// From the first byte written to the last byte drained.
    pub send_seconds: f64,
    /// From the first byte written to the reply decoded.
    pub link_seconds: f64,
    /// The board answered before the whole stream was sent (a refusal).
    pub early: bool,
}

/// Why the link failed.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("serial port {port} does not exist ({reason})")]
    PortMissing { port: String, reason: String },
    #[error("serial port {port} is busy: another program has it open ({reason})")]
    PortBusy { port: String, reason: String },
    #[error("cannot open serial port {port}: {reason}")]
    Open { port: String, reason: String },
    #[error("{0}")]
    NoBoard(String),
    #[error(
        "the board did not answer within {:.1} s after the last byte was sent ({} of {} bytes sent); {}",
        waited.as_secs_f64(), sent, total, describe_received(received)
    )]
    Timeout {
        waited: Duration,
        sent: usize,
        total: usize,
        received: Vec<u8>,
    },
    #[error("the board's reply is garbled: {error}; bytes received: {}", hex(bytes))]
    Garbage { error: ReplyError, bytes: Vec<u8> },
    #[error("the port stopped taking bytes after {sent} of {total} were sent")]
    Stuck { sent: usize, total: usize },
    #[error("serial I/O error: {0}")]
    Io(#[from] io::Error),
    #[error("the board did not switch to flash image {image} ({engine} engine): {reason}")]
    NotSwitched {
        image: u8,
        engine: &'static str,
        reason: String,
    },
}

fn describe_received(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "no byte arrived".into()
    } else {
        format!("{} bytes arrived, not a whole reply: {}", bytes.len(), hex(bytes))
    }
}

/// Bytes as hex, the first 64 of them.
pub fn hex(bytes: &[u8]) -> String {
    let mut s: Vec<String> = bytes.iter().take(64).map(|b| format!("{b:02x}")).collect();
    if bytes.len() > 64 {
        s.push(format!("… ({} more)", bytes.len() - 64));
    }
    s.join(" ")
}

/// How long to wait for a reply after the last byte is sent: 2 s, plus three
/// times the reply's wire time, plus a bound on the solve (every pass fixes
/// a cell or ends it; a pass reads every option and takes a few cycles per
/// line) at 100 MHz.
pub fn reply_timeout(rows: usize, columns: usize, options: u64, baud: u32) -> Duration {
    let cells = (rows * columns) as u64;
    let reply_bytes = 2 * (2 + cells + 12 + 1);
    let wire = reply_bytes as f64 * 10.0 / baud.max(1) as f64;
    let lines = (rows + columns) as u64;
    let cycles = (cells + 1) as f64 * (options + 8 * lines + 64) as f64;
    let solve = cycles / nonogram_hdl::common::params::BOARD_CLOCK_HZ as f64;
    Duration::from_secs_f64(2.0 + 3.0 * wire + solve)
}

/// How long a busy port is tried again before it is reported busy. A port
/// that the last client has just closed can still be locked for a moment:
/// a child process that another thread forked holds the last client's
/// descriptor (and its `flock`) until the child's `exec` closes it.
const BUSY_RETRY: Duration = Duration::from_millis(500);

/// Opens a serial port at `baud`, 8N1, with clear errors for a missing or busy port.
pub fn open_port(path: &str, baud: u32) -> Result<Box<dyn SerialPort>, LinkError> {
    let give_up = std::time::Instant::now() + BUSY_RETRY;
    loop {
        let opened = serialport::new(path, baud)
            .data_bits(serialport::DataBits::Eight)
            .parity(serialport::Parity::None)
            .stop_bits(serialport::StopBits::One)
            .flow_control(serialport::FlowControl::None)
            .timeout(Duration::from_millis(100))
            .open();
        match opened {
            Err(e) if e.kind == serialport::ErrorKind::NoDevice && std::time::Instant::now() < give_up => {
                std::thread::sleep(Duration::from_millis(20))
            }
            other => return other.map_err(|e| open_error(path, e)),
        }
    }
}

fn open_error(path: &str, e: serialport::Error) -> LinkError {
    let port = path.to_string();
    let reason = e.description.clone();
    match e.kind {
        serialport::ErrorKind::NoDevice => LinkError::PortBusy { port, reason },
        serialport::ErrorKind::Io(io::ErrorKind::NotFound) => LinkError::PortMissing { port, reason },
        serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied) => LinkError::Open {
            port,
            reason: format!("{reason} (on Linux, join the 'dialout' group)"),
        },
        _ if !std::path::Path::new(path).exists() && cfg!(unix) => LinkError::PortMissing { port, reason },
        _ => LinkError::Open { port, reason },
    }
}

/// One serial port as `nonohost ports` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortEntry {
    pub name: String,
    pub description: String,
    /// USB (vid, pid, interface).
    pub usb: Option<(u16, u16, Option<u8>)>,
    /// This is the Alchitry Cu's UART.
    pub cu_uart: bool,
}

/// Serial ports on this machine.
pub fn list_ports() -> Result<Vec<PortEntry>, LinkError> {
    if cfg!(target_os = "linux") && !std::path::Path::new("/sys/class/tty").exists() {
        return Ok(Vec::new());
    }
    let ports = serialport::available_ports()
        .map_err(|e| LinkError::NoBoard(format!("cannot list serial ports: {e}")))?;
    Ok(describe_ports(&ports))
}

/// Describes ports and marks the Alchitry Cu's UART (see [`pick_board_port`]).
pub fn describe_ports(ports: &[SerialPortInfo]) -> Vec<PortEntry> {
    let chosen = pick_board_port(ports).ok();
    let mut entries: Vec<PortEntry> = ports
        .iter()
        .map(|p| {
            let (description, usb) = match &p.port_type {
                SerialPortType::UsbPort(u) => {
                    let interface = usb_interface(u);
                    let mut d = format!("USB {:04x}:{:04x}", u.vid, u.pid);
                    if let Some(i) = interface {
                        d.push_str(&format!(" interface {i}"));
                    }
                    for s in [&u.manufacturer, &u.product, &u.serial_number]
                        .into_iter()
                        .flatten()
                    {
                        d.push_str(&format!(" {s}"));
                    }
                    (d, Some((u.vid, u.pid, interface)))
                }
                SerialPortType::PciPort => ("PCI".into(), None),
                SerialPortType::BluetoothPort => ("Bluetooth".into(), None),
                SerialPortType::Unknown => ("unknown".into(), None),
            };
            PortEntry {
                cu_uart: chosen.as_deref() == Some(p.port_name.as_str()),
                name: p.port_name.clone(),
                description,
                usb,
            }
        })
        .collect();
    entries.sort_by_key(|e| port_sort_key(&e.name));
    entries
}

fn usb_interface(u: &serialport::UsbPortInfo) -> Option<u8> {
    u.interface
}

/// Sorts /dev/ttyUSB2 before /dev/ttyUSB10.
fn port_sort_key(name: &str) -> (String, u64) {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (stem, number) = name.split_at(name.len() - digits);
    (stem.to_string(), number.parse().unwrap_or(0))
}

/// The Alchitry Cu's UART among `ports`: the FT2232H (0403:6010) interface
/// B, or, where the interface is not known, the second of its two ports.
/// `Err` says what was found.
pub fn pick_board_port(ports: &[SerialPortInfo]) -> Result<String, String> {
    let mut cu: Vec<(&str, Option<u8>)> = ports
        .iter()
        .filter_map(|p| match &p.port_type {
            SerialPortType::UsbPort(u) if u.vid == CU_VID && u.pid == CU_PID => {
                Some((p.port_name.as_str(), usb_interface(u)))
            }
            _ => None,
        })
        .collect();
    cu.sort_by_key(|(n, _)| port_sort_key(n));
    let seen = || {
        if ports.is_empty() {
            "no serial port at all".to_string()
        } else {
            let names: Vec<&str> = ports.iter().map(|p| p.port_name.as_str()).collect();
            format!("ports seen: {}", names.join(", "))
        }
    };
    if cu.is_empty() {
        return Err(format!(
            "no Alchitry Cu found (USB {CU_VID:04x}:{CU_PID:04x}); {}; is it plugged in? Name the port with --port, or try the simulated board with --sim",
            seen()
        ));
    }
    let uarts: Vec<&str> = cu
        .iter()
        .filter(|(_, i)| *i == Some(CU_UART_INTERFACE))
        .map(|(n, _)| *n)
        .collect();
    match uarts.len() {
        1 => return Ok(uarts[0].to_string()),
        0 => {}
        _ => {
            return Err(format!(
                "several Alchitry Cu UARTs: {}; pick one with --port",
                uarts.join(", ")
            ))
        }
    }
    if cu.iter().all(|(_, i)| i.is_none()) && cu.len() == 2 {
        return Ok(cu[1].0.to_string());
    }
    let names: Vec<String> = cu
        .iter()
        .map(|(n, i)| match i {
            Some(i) => format!("{n} (interface {i})"),
            None => n.to_string(),
        })
        .collect();
    Err(format!(
        "cannot tell which FT2232H port is the Alchitry Cu's UART among {}; pick one with --port",
        names.join(", ")
    ))
}

/// Finds the Alchitry Cu's UART on this machine.
pub fn find_board_port() -> Result<String, LinkError> {
    if cfg!(target_os = "linux") && !std::path::Path::new("/sys/class/tty").exists() {
        return Err(LinkError::NoBoard(
            "no serial ports can be listed here (/sys/class/tty is missing); name the port with --port"
                .into(),
        ));
    }
    let ports = serialport::available_ports()
        .map_err(|e| LinkError::NoBoard(format!("cannot list serial ports: {e}")))?;
    pick_board_port(&ports).map_err(LinkError::NoBoard)
}

/// Encodes `puzzle` for the board's engine (options, protocol v1; or clues,
/// protocol v2, with the search `budget` in units of 2^20 cycles) and sends
/// it: see [`exchange`].
pub fn send_puzzle(
    port: &mut dyn SerialPort,
    puzzle: &Puzzle,
    engine: Engine,
    every_cell: bool,
    budget: u16,
    first: bool,
    config: &LinkConfig,
) -> Result<Exchange, LinkError> {
    let bytes = match engine {
        Engine::Dnf => crate::wire::encode(puzzle, every_cell),
        Engine::Clues | Engine::Probing => crate::wire::encode_clues(puzzle, budget, first),
        Engine::Colour => crate::wire::encode_colour_clues(puzzle, budget, first),
    };
    let timeout = config.reply_timeout.unwrap_or_else(|| {
        // A search may take its whole budget.
        let search = match engine {
            Engine::Dnf => 0,
            Engine::Clues | Engine::Probing | Engine::Colour => {
                (budget as u64) << nonogram_hdl::clue::clue_model::BUDGET_UNIT_BITS
            }
        };
        reply_timeout(
            puzzle.height(),
            puzzle.width(),
            crate::wire::total_options(puzzle),
            config.baud,
        ) + Duration::from_secs_f64(search as f64 / nonogram_hdl::common::params::BOARD_CLOCK_HZ as f64)
    });
    exchange(port, &bytes, timeout, config)
}

/// The longest wait for an INFO reply: the reply timeout set for a board
/// (a whole solve's, on a slow simulated board) is far more than an INFO
/// reply needs, and a stopped board would keep the user waiting for it.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(10);

/// Asks the board for its build parameters (an INFO reply). Any other
/// reply is a late one, to an earlier board whose reply timed out (the
/// board was still solving and ignored QUERY): it is dropped, and QUERY
/// asked again while the time lasts.
pub fn query(port: &mut dyn SerialPort, config: &LinkConfig) -> Result<Reply, LinkError> {
    let short = reply_timeout(0, 0, 0, config.baud);
    let timeout = config
        .reply_timeout
        .map_or(short, |t| t.min(QUERY_TIMEOUT).max(short));
    let quiet = LinkConfig {
        progress: false,
        ..config.clone()
    };
    let start = Instant::now();
    loop {
        let answer = exchange(port, &query_bytes(), timeout, &quiet)?;
        if answer.reply.outcome == nonogram_hdl::link::protocol::status::outcome::INFO {
            return Ok(answer.reply);
        }
        if start.elapsed() > timeout {
            return Err(LinkError::Timeout {
                waited: start.elapsed(),
                sent: 2,
                total: 2,
                received: answer.reply_bytes,
            });
        }
    }
}

/// How long a board takes to reboot into another flash image: the iCE40
/// reads a whole image (135 kB for the HX8K) from its SPI flash, tens of
/// milliseconds; its pins float meanwhile, so bytes heard then are noise.
pub const REBOOT_TIME: Duration = Duration::from_millis(200);

/// How long after a SWITCH the new image may take to answer QUERY.
pub const SWITCH_TIMEOUT: Duration = Duration::from_secs(3);

/// The engine an INFO reply says is running, and the set of flash images
/// it says the board holds (bit i: image i). A v1 INFO without the ENGINES
/// field (a board from before warm boot) runs the DNF engine alone.
pub fn running(info: &Reply) -> (Engine, u8) {
    use nonogram_hdl::link::protocol::status::engines;
    if info.engines == 0 {
        return (Engine::Dnf, 0);
    }
    let engine = match info.engines & 0x0f {
        engines::CLUES => Engine::Clues,
        engines::PROBING => Engine::Probing,
        engines::COLOUR => Engine::Colour,
        _ => Engine::Dnf,
    };
    (engine, info.engines >> 4)
}

/// Reboots the board into the flash image of `engine` (SWITCH) and returns
/// the new image's INFO reply. The board must be idle: it ignores SWITCH
/// while it loads, solves or replies (the caller has just had an INFO).
pub fn switch_engine(
    port: &mut dyn SerialPort,
    engine: Engine,
    config: &LinkConfig,
) -> Result<Reply, LinkError> {
    use nonogram_hdl::link::protocol::{code, Message};
    let image = engine.image();
    let not_switched = |reason: String| LinkError::NotSwitched {
        image,
        engine: engine.name(),
        reason,
    };
    port.clear(ClearBuffer::Input).map_err(io::Error::from)?;
    std::thread::sleep(config.idle_before);
    let stall = Duration::from_secs(2);
    write_all(
        port,
        &Message::new(code::SWITCH, image as u16, false).to_bytes(),
        stall,
    )?;
    port.flush()?;
    drain_output(port, stall)?;
    let start = Instant::now();
    // A slow simulated board (its reply allowance) may need longer.
    let timeout = SWITCH_TIMEOUT.max(config.reply_timeout.unwrap_or_default());
    std::thread::sleep(REBOOT_TIME);
    loop {
        match query(port, config) {
            Ok(info) if running(&info).0 == engine => return Ok(info),
            Ok(info) => {
                return Err(not_switched(format!(
                    "it still runs the {} engine",
                    running(&info).0.name()
                )))
            }
            Err(e) if start.elapsed() > timeout => {
                return Err(not_switched(format!(
                    "no INFO reply after {:.0} s ({e})",
                    timeout.as_secs_f64()
                )))
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// Sends `bytes` (whole messages) and returns the board's decoded reply.
///
/// Clears the input buffer, leaves the line idle for `config.idle_before`,
/// writes in even-sized chunks of about 50 ms of wire time (draining each,
/// so the progress bar tells the truth and no message is split across a
/// pause), stops early if the board answers mid-stream, then waits up to
/// `reply_timeout` after the last byte for a complete reply.
pub fn exchange(
    port: &mut dyn SerialPort,
    bytes: &[u8],
    reply_timeout: Duration,
    config: &LinkConfig,
) -> Result<Exchange, LinkError> {
    let baud = config.baud.max(1);
    port.clear(ClearBuffer::Input).map_err(io::Error::from)?;
    std::thread::sleep(config.idle_before);
    port.clear(ClearBuffer::Input).map_err(io::Error::from)?;

    let chunk = (((baud / 10 / 20) as usize).clamp(4, 4096)) & !1;
    // The port may stall (a slow simulator, a full buffer) but must take
    // some bytes every so often.
    let stall = config.stall_timeout.unwrap_or_else(|| {
        Duration::from_secs_f64(2.0 + 3.0 * crate::wire::wire_seconds(chunk as u64, baud))
    });
    let bar = if config.progress {
        let bar = ProgressBar::new(bytes.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "sending {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };

    let start = Instant::now();
    let mut received = Vec::new();
    let mut sent = 0;
    let mut early = None;
    for piece in bytes.chunks(chunk) {
        write_all(port, piece, stall).map_err(|e| match e {
            LinkError::Stuck { .. } => LinkError::Stuck {
                sent,
                total: bytes.len(),
            },
            e => e,
        })?;
        port.flush()?;
        sent += piece.len();
        bar.set_position(sent as u64);
        // A board that refuses a stream answers at once.
        if port.bytes_to_read().map_err(io::Error::from)? > 0 {
            read_available(port, &mut received)?;
            match decode_reply(&received) {
                Ok((reply, used)) => {
                    early = Some((reply, used));
                    break;
                }
                Err(ReplyError::Incomplete) => {}
                Err(error) => {
                    return Err(LinkError::Garbage {
                        error,
                        bytes: received,
                    })
                }
            }
        }
    }
    bar.finish_and_clear();
    let send_seconds = start.elapsed().as_secs_f64();
    // A port that swallowed the bytes faster than the line rate (a
    // pseudo-terminal, a USB UART's buffer) has not put them on the wire
    // yet: the timer allows for the wire time still to come.
    let unsent = crate::wire::wire_seconds(sent as u64, baud) - start.elapsed().as_secs_f64();
    let reply_timeout = reply_timeout + Duration::from_secs_f64(unsent.max(0.0));
    let (reply, used) = match early {
        Some(r) => r,
        None => {
            let spinner =
                crate::progress::spinner(config.progress, "{spinner} waiting for the board, {elapsed}");
            let reply = drain_output(port, stall)
                .and_then(|()| wait_reply(port, &mut received, reply_timeout, sent, bytes.len()));
            spinner.finish_and_clear();
            reply?
        }
    };
    received.truncate(used);
    Ok(Exchange {
        reply,
        reply_bytes: received,
        bytes_sent: sent,
        send_seconds,
        link_seconds: start.elapsed().as_secs_f64(),
        early: sent < bytes.len(),
    })
}

fn write_all(port: &mut dyn SerialPort, mut data: &[u8], stall: Duration) -> Result<(), LinkError> {
    let mut deadline = Instant::now() + stall;
    while !data.is_empty() {
        match port.write(data) {
            Ok(0) => return Err(LinkError::Stuck { sent: 0, total: 0 }),
            Ok(n) => {
                data = &data[n..];
                deadline = Instant::now() + stall;
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                if Instant::now() > deadline {
                    return Err(LinkError::Stuck { sent: 0, total: 0 });
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

fn read_available(port: &mut dyn SerialPort, into: &mut Vec<u8>) -> Result<(), LinkError> {
    let n = port.bytes_to_read().map_err(io::Error::from)? as usize;
    if n == 0 {
        return Ok(());
    }
    let start = into.len();
    into.resize(start + n, 0);
    match port.read(&mut into[start..]) {
        Ok(got) => {
            into.truncate(start + got);
            Ok(())
        }
        Err(e) => {
            into.truncate(start);
            if matches!(
                e.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
            ) {
                Ok(())
            } else {
                Err(e.into())
            }
        }
    }
}

/// Waits until the port has handed every written byte on (its output queue
/// is empty), as long as the queue keeps shrinking at least every `stall`:
/// behind a pseudo-terminal, the queue empties only as fast as the board
/// (a simulator, perhaps slower than the wire) reads it.
fn drain_output(port: &mut dyn SerialPort, stall: Duration) -> Result<(), LinkError> {
    let mut last = u32::MAX;
    let mut since = Instant::now();
    loop {
        // A port that cannot tell (not every driver can) counts as drained.
        let queued = port.bytes_to_write().unwrap_or(0);
        if queued == 0 {
            return Ok(());
        }
        if queued < last {
            last = queued;
            since = Instant::now();
        } else if since.elapsed() > stall {
            return Ok(()); // the reply timer takes over
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Reads until a whole reply has arrived; the timer starts again with every
/// byte that arrives, so a slow reply in progress is not cut off.
fn wait_reply(
    port: &mut dyn SerialPort,
    received: &mut Vec<u8>,
    timeout: Duration,
    sent: usize,
    total: usize,
) -> Result<(Reply, usize), LinkError> {
    let mut deadline = Instant::now() + timeout;
    let mut buf = [0u8; 1024];
    loop {
        match decode_reply(received) {
            Ok(r) => return Ok(r),
            Err(ReplyError::Incomplete) => {}
            Err(error) => {
                return Err(LinkError::Garbage {
                    error,
                    bytes: std::mem::take(received),
                })
            }
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(LinkError::Timeout {
                waited: timeout,
                sent,
                total,
                received: std::mem::take(received),
            });
        }
        let wait = (deadline - now).min(Duration::from_millis(100));
        port.set_timeout(wait.max(Duration::from_millis(1)))
            .map_err(io::Error::from)?;
        match port.read(&mut buf) {
            Ok(0) => std::thread::sleep(Duration::from_millis(5)),
            Ok(n) => {
                received.extend_from_slice(&buf[..n]);
                deadline = Instant::now() + timeout;
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serialport::UsbPortInfo;

    fn usb(name: &str, vid: u16, pid: u16, interface: Option<u8>) -> SerialPortInfo {
        SerialPortInfo {
            port_name: name.into(),
            port_type: SerialPortType::UsbPort(UsbPortInfo {
                vid,
                pid,
                serial_number: None,
                manufacturer: None,
                product: None,
                interface,
            }),
        }
    }

    #[test]
    fn picks_interface_b_of_the_cu() {
        let ports = vec![
            usb("/dev/ttyUSB0", CU_VID, CU_PID, Some(0)),
            usb("/dev/ttyUSB1", CU_VID, CU_PID, Some(1)),
            usb("/dev/ttyUSB2", 0x1a86, 0x7523, Some(0)),
        ];
        assert_eq!(pick_board_port(&ports).unwrap(), "/dev/ttyUSB1");
        let entries = describe_ports(&ports);
        assert_eq!(entries.iter().filter(|e| e.cu_uart).count(), 1);
        assert!(entries[1].cu_uart);
    }

    #[test]
    fn without_interfaces_takes_the_second_port() {
        let ports = vec![
            usb("/dev/ttyUSB10", CU_VID, CU_PID, None),
            usb("/dev/ttyUSB9", CU_VID, CU_PID, None),
        ];
        assert_eq!(pick_board_port(&ports).unwrap(), "/dev/ttyUSB10");
    }

    #[test]
    fn says_what_it_found_when_unsure() {
        let none = pick_board_port(&[usb("/dev/ttyACM0", 0x2341, 0x0043, Some(0))]).unwrap_err();
        assert!(
            none.contains("no Alchitry Cu") && none.contains("/dev/ttyACM0"),
            "{none}"
        );
        let two = pick_board_port(&[
            usb("/dev/ttyUSB0", CU_VID, CU_PID, Some(1)),
            usb("/dev/ttyUSB2", CU_VID, CU_PID, Some(1)),
        ])
        .unwrap_err();
        assert!(two.contains("several") && two.contains("/dev/ttyUSB2"), "{two}");
        let three = pick_board_port(&[
            usb("/dev/ttyUSB0", CU_VID, CU_PID, None),
            usb("/dev/ttyUSB1", CU_VID, CU_PID, None),
            usb("/dev/ttyUSB2", CU_VID, CU_PID, None),
        ])
        .unwrap_err();
        assert!(three.contains("cannot tell"), "{three}");
    }

    #[test]
    fn timeouts_scale_with_size_and_baud() {
        let small = reply_timeout(4, 4, 20, 9600);
        let big = reply_timeout(30, 30, 2000, 9600);
        let slow = reply_timeout(30, 30, 2000, 1200);
        assert!(small >= Duration::from_secs(2) && small < big && big < slow);
        assert!(idle_before(9600) >= Duration::from_millis(20));
        assert!(idle_before(300) > Duration::from_millis(500));
    }
}
