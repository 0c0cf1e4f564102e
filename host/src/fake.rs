//! A model board: a stand-in for the Alchitry Cu that serves any
//! [`SerialPort`] (a pseudo-terminal in tests). It decodes the host's
//! protocol v1 stream, solves each board with `nonogram_hdl::model::solve`
//! and sends the reply, as the gateware does. It also answers QUERY with an
//! INFO reply, refuses boards over capacity and malformed streams, and drops
//! a half message or a lone START_BOARD after an idle gap.
//!
//! ```no_run
//! let (host_end, board_end) = serialport::TTYPort::pair().unwrap();
//! let board = nonohost::fake::ModelBoard::new().spawn(Box::new(board_end));
//! // … talk to `host_end` …
//! board.stop();
//! ```

use nonogram_hdl::model::{check_capacity, solve, Verdict};
use nonogram_hdl::params::{FIFO_ADDR_BITS, FIFO_ENTRIES, MAX_LINE, MAX_LINES};
use nonogram_hdl::protocol::status::{detail, field, outcome};
use nonogram_hdl::protocol::{code, Message, VERSION};
use serialport::SerialPort;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How a fake board behaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Decodes, solves with the model, replies (the default).
    Model,
    /// Reads everything, never answers.
    Silent,
    /// Answers END_BOARD with these bytes instead of a reply.
    Garbage(Vec<u8>),
}

/// The model board. See the module documentation.
#[derive(Clone, Debug)]
pub struct ModelBoard {
    /// Idle gap after which a half message or a lone START_BOARD is dropped
    /// (a half message while a board loads refuses it as TRUNCATED). The
    /// gateware's is 80 bit times, 8.3 ms at 9600 baud; a pseudo-terminal has
    /// no wire timing and a busy machine can pause the writer for longer
    /// than that, so the default here is 250 ms.
    pub idle: Duration,
    pub behaviour: Behaviour,
}

impl Default for ModelBoard {
    fn default() -> Self {
        ModelBoard::new()
    }
}

/// A model board serving a port on its own thread.
pub struct RunningBoard {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<io::Result<u64>>>,
}

impl RunningBoard {
    /// Stops the board and returns how many boards it answered.
    pub fn stop(mut self) -> io::Result<u64> {
        self.stop.store(true, Ordering::SeqCst);
        match self.handle.take().map(|h| h.join()) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(io::Error::other("the model board panicked")),
            None => Ok(0),
        }
    }
}

impl Drop for RunningBoard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl ModelBoard {
    pub fn new() -> ModelBoard {
        ModelBoard {
            idle: Duration::from_millis(250),
            behaviour: Behaviour::Model,
        }
    }

    pub fn with_behaviour(behaviour: Behaviour) -> ModelBoard {
        ModelBoard {
            behaviour,
            ..ModelBoard::new()
        }
    }

    /// Serves `port` on a new thread until [`RunningBoard::stop`] (or drop),
    /// or until the port closes.
    pub fn spawn(self, port: Box<dyn SerialPort>) -> RunningBoard {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || self.serve(port, &flag));
        RunningBoard {
            stop,
            handle: Some(handle),
        }
    }

    /// Serves `port` until `stop` is set or the port closes; returns how many
    /// replies it sent.
    pub fn serve(&self, mut port: Box<dyn SerialPort>, stop: &AtomicBool) -> io::Result<u64> {
        // Poll often, so that stop() is quick, and time the idle gap apart.
        port.set_timeout(
            self.idle
                .clamp(Duration::from_millis(1), Duration::from_millis(20)),
        )
        .map_err(io::Error::from)?;
        let mut stream = BoardStream::default();
        let mut replies = 0;
        let mut buf = [0u8; 4096];
        let mut last_byte = Instant::now();
        while !stop.load(Ordering::SeqCst) {
            match port.read(&mut buf) {
                Ok(0) => return Ok(replies),
                Ok(n) => {
                    last_byte = Instant::now();
                    for &byte in &buf[..n] {
                        if let Some(reply) = stream.byte(byte) {
                            let reply = match (&self.behaviour, reply) {
                                (Behaviour::Silent, _) => continue,
                                (Behaviour::Garbage(g), _) => g.clone(),
                                (Behaviour::Model, r) => r,
                            };
                            port.write_all(&reply)?;
                            port.flush()?;
                            replies += 1;
                        }
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::TimedOut || e.kind() == io::ErrorKind::WouldBlock => {
                    if last_byte.elapsed() < self.idle {
                        continue;
                    }
                    if let Some(reply) = stream.idle() {
                        if self.behaviour == Behaviour::Model {
                            port.write_all(&reply)?;
                            port.flush()?;
                            replies += 1;
                        }
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // A pty whose other end closed reads EIO.
                Err(_) => return Ok(replies),
            }
        }
        Ok(replies)
    }
}

/// The board side of the host → board stream: a state machine that takes
/// bytes and returns a reply when one is due.
#[derive(Debug, Default)]
pub struct BoardStream {
    half: Option<u8>,
    state: State,
}

#[derive(Debug, Default)]
enum State {
    /// Waiting for START_BOARD (or QUERY); anything else is ignored.
    #[default]
    Idle,
    /// Got the first START_BOARD (rows).
    Rows(usize),
    /// Receiving lines.
    Board {
        rows: usize,
        columns: usize,
        lines: Vec<Vec<u64>>,
        /// The open line's current option, if a line is open.
        option: Option<u64>,
        stored: usize,
    },
}

impl BoardStream {
    /// The line was idle for 80 bit times: drop a half message and a lone
    /// START_BOARD; half a message while a board loads refuses it (TRUNCATED).
    pub fn idle(&mut self) -> Option<Vec<u8>> {
        let half = self.half.take();
        match self.state {
            State::Rows(_) => self.state = State::Idle,
            State::Board { .. } if half.is_some() => {
                return self.refuse(outcome::MALFORMED, detail::TRUNCATED);
            }
            _ => {}
        }
        None
    }

    /// Takes one byte; returns a reply when the board answers.
    pub fn byte(&mut self, byte: u8) -> Option<Vec<u8>> {
        match self.half.take() {
            None => {
                self.half = Some(byte);
                None
            }
            Some(high) => self.message(Message::from_bytes([high, byte])),
        }
    }

    fn refuse(&mut self, o: u8, d: u8) -> Option<Vec<u8>> {
        self.state = State::Idle;
        Some(refusal(o, d))
    }

    /// Takes one message; returns a reply when the board answers.
    pub fn message(&mut self, m: Message) -> Option<Vec<u8>> {
        let index = m.index() as usize;
        if m.code() == code::START_BOARD {
            match self.state {
                State::Rows(rows) => {
                    let columns = index;
                    if let Err((o, d)) = check_capacity(rows, columns, 0) {
                        return self.refuse(o, d);
                    }
                    self.state = State::Board {
                        rows,
                        columns,
                        lines: Vec::with_capacity(rows + columns),
                        option: None,
                        stored: 0,
                    };
                }
                _ => self.state = State::Rows(index),
            }
            return None;
        }
        match &mut self.state {
            State::Idle => {
                if m.code() == code::QUERY {
                    return Some(info_reply());
                }
                None
            }
            State::Rows(_) => self.refuse(outcome::MALFORMED, detail::UNEXPECTED),
            State::Board {
                rows,
                columns,
                lines,
                option,
                stored,
            } => {
                let (rows, columns) = (*rows, *columns);
                let total = rows + columns;
                // The open line is the last one pushed.
                let length = if lines.len() <= rows { columns } else { rows };
                match (m.code(), option.is_some()) {
                    (code::START_LINE, false) => {
                        if index != lines.len() || index >= total {
                            return self.refuse(outcome::MALFORMED, detail::WRONG_LINE);
                        }
                        lines.push(Vec::new());
                        *option = Some(0);
                    }
                    (code::ASSIGN, true) => {
                        if index >= length {
                            return self.refuse(outcome::MALFORMED, detail::CELL_OUT_OF_LINE);
                        }
                        let o = option.as_mut().expect("open line");
                        if m.value() {
                            *o |= 1 << index;
                        } else {
                            *o &= !(1 << index);
                        }
                    }
                    (code::NEXT_OPTION, true) | (code::END_LINE, true) => {
                        *stored += 1;
                        if *stored > FIFO_ENTRIES {
                            return self.refuse(outcome::OVER_CAPACITY, detail::FIFO_FULL);
                        }
                        let line = lines.last_mut().expect("open line");
                        line.push(option.unwrap_or(0));
                        *option = if m.code() == code::NEXT_OPTION {
                            Some(0)
                        } else {
                            None
                        };
                    }
                    (code::END_BOARD, false) => {
                        if lines.len() != total {
                            return self.refuse(outcome::MALFORMED, detail::WRONG_LINE);
                        }
                        let lines = std::mem::take(lines);
                        self.state = State::Idle;
                        let verdict = solve(rows, columns, &lines);
                        return Some(encode_reply(&verdict));
                    }
                    _ => return self.refuse(outcome::MALFORMED, detail::UNEXPECTED),
                }
                None
            }
        }
    }
}

fn push(out: &mut Vec<u8>, m: Message) {
    out.extend_from_slice(&m.to_bytes());
}

/// Clock cycles the model board reports: the reference model's count of the
/// gateware's cycles, saturating at 32 bits.
pub fn model_cycles(verdict: &Verdict) -> u32 {
    verdict.cycles.min(u32::MAX as u64) as u32
}

/// The reply frame for a solved, stalled or contradictory board, as the
/// gateware sends it: START_BOARD m, START_BOARD n, m·n ASSIGN/UNKNOWN
/// (index r·n + c), the STATUS fields 0..=12 in order, END_BOARD.
pub fn encode_reply(verdict: &Verdict) -> Vec<u8> {
    if verdict.cells.is_empty() {
        return refusal(verdict.outcome, verdict.detail);
    }
    let mut out = Vec::new();
    push(
        &mut out,
        Message::new(code::START_BOARD, verdict.rows as u16, false),
    );
    push(
        &mut out,
        Message::new(code::START_BOARD, verdict.columns as u16, false),
    );
    for (i, cell) in verdict.cells.iter().enumerate() {
        let m = match cell {
            Some(v) => Message::new(code::ASSIGN, i as u16, *v),
            None => Message::new(code::UNKNOWN, i as u16, false),
        };
        push(&mut out, m);
    }
    status_fields(
        &mut out,
        verdict.outcome,
        verdict.detail,
        model_cycles(verdict),
        verdict.passes,
        verdict.options as u16,
    );
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

fn status_fields(out: &mut Vec<u8>, o: u8, d: u8, cycles: u32, passes: u8, options: u16) {
    push(out, Message::status(field::OUTCOME, o));
    push(out, Message::status(field::DETAIL, d));
    for (i, b) in cycles.to_le_bytes().iter().enumerate() {
        push(out, Message::status(field::CYCLES_0 + i as u8, *b));
    }
    push(out, Message::status(field::PASSES, passes));
    for (i, b) in options.to_le_bytes().iter().enumerate() {
        push(out, Message::status(field::OPTIONS_0 + i as u8, *b));
    }
    push(out, Message::status(field::MAX_LINE, MAX_LINE as u8));
    push(out, Message::status(field::FIFO_ADDR_BITS, FIFO_ADDR_BITS as u8));
    push(out, Message::status(field::VERSION, VERSION));
    push(out, Message::status(field::MAX_LINES, MAX_LINES as u8));
}

/// A reply without cells (m = n = 0): the board was refused (over
/// capacity, malformed).
pub fn refusal(o: u8, d: u8) -> Vec<u8> {
    let mut out = Vec::new();
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    status_fields(&mut out, o, d, 0, 0, 0);
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

/// The INFO reply to a QUERY: the build parameters (m = n = 0, no cells).
pub fn info_reply() -> Vec<u8> {
    refusal(outcome::INFO, detail::NONE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;
    use nonogram_hdl::protocol::decode_reply;

    fn feed(stream: &mut BoardStream, bytes: &[u8]) -> Vec<Vec<u8>> {
        bytes.iter().filter_map(|&b| stream.byte(b)).collect()
    }

    #[test]
    fn answers_a_board_with_the_model() {
        let p = Puzzle::from_clues(
            "t",
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        );
        for every in [false, true] {
            let mut s = BoardStream::default();
            let replies = feed(&mut s, &crate::wire::encode(&p, every));
            assert_eq!(replies.len(), 1);
            let (reply, used) = decode_reply(&replies[0]).unwrap();
            assert_eq!(used, replies[0].len());
            assert_eq!(reply.outcome, outcome::SOLVED);
            let cells: Vec<bool> = reply.cells.iter().map(|c| c.unwrap()).collect();
            p.check_solution(&cells).unwrap();
            assert!(reply.cycles > 0);
        }
    }

    #[test]
    fn refuses_bad_streams() {
        let mut s = BoardStream::default();
        let mut bytes = Vec::new();
        push(&mut bytes, Message::new(code::START_BOARD, 2, false));
        push(&mut bytes, Message::new(code::START_BOARD, 2, false));
        push(&mut bytes, Message::new(code::START_LINE, 1, false));
        let r = feed(&mut s, &bytes);
        let (reply, _) = decode_reply(&r[0]).unwrap();
        assert_eq!(
            (reply.outcome, reply.detail),
            (outcome::MALFORMED, detail::WRONG_LINE)
        );
        let mut s = BoardStream::default();
        let mut bytes = Vec::new();
        push(&mut bytes, Message::new(code::START_BOARD, 40, false));
        push(&mut bytes, Message::new(code::START_BOARD, 2, false));
        let (reply, _) = decode_reply(&feed(&mut s, &bytes)[0]).unwrap();
        assert_eq!(
            (reply.outcome, reply.detail),
            (outcome::OVER_CAPACITY, detail::BAD_SIZE)
        );
        let (info, _) = decode_reply(
            &feed(
                &mut BoardStream::default(),
                &nonogram_hdl::protocol::query_bytes(),
            )[0],
        )
        .unwrap();
        assert_eq!(
            (info.outcome, info.version, info.max_line),
            (outcome::INFO, VERSION, MAX_LINE as u8)
        );
    }

    #[test]
    fn idle_mid_message_truncates_a_loading_board() {
        let p = Puzzle::from_clues("t", vec![vec![1]], vec![vec![1]]);
        let bytes = crate::wire::encode(&p, false);
        let mut s = BoardStream::default();
        assert!(feed(&mut s, &bytes[..7]).is_empty());
        let (reply, _) = decode_reply(&s.idle().unwrap()).unwrap();
        assert_eq!(
            (reply.outcome, reply.detail),
            (outcome::MALFORMED, detail::TRUNCATED)
        );
        assert_eq!((reply.rows, reply.columns, reply.cells.len()), (0, 0, 0));
        // A pause between whole messages is harmless.
        let mut s = BoardStream::default();
        assert!(feed(&mut s, &bytes[..6]).is_empty());
        assert_eq!(s.idle(), None);
        let (reply, _) = decode_reply(&feed(&mut s, &bytes[6..])[0]).unwrap();
        assert_eq!(reply.outcome, outcome::SOLVED);
    }

    #[test]
    fn idle_drops_a_lone_start_board() {
        let mut s = BoardStream::default();
        let mut bytes = Vec::new();
        push(&mut bytes, Message::new(code::START_BOARD, 3, false));
        feed(&mut s, &bytes);
        feed(&mut s, &[0x55]); // half a message
        assert_eq!(s.idle(), None);
        let p = Puzzle::from_clues("t", vec![vec![1]], vec![vec![1]]);
        let r = feed(&mut s, &crate::wire::encode(&p, false));
        let (reply, _) = decode_reply(&r[0]).unwrap();
        assert_eq!(
            (reply.rows, reply.columns, reply.outcome),
            (1, 1, outcome::SOLVED)
        );
    }
}
