//! A model board: a stand-in for the Alchitry Cu that serves any
//! [`SerialPort`] (a pseudo-terminal in tests). The board side of the
//! protocol is `nonogram_hdl::board_model` (checked there against the
//! simulated core); this file is only the plumbing that runs it on a port,
//! with the idle gap timed on the wall clock.
//!
//! ```no_run
//! let (host_end, board_end) = serialport::TTYPort::pair().unwrap();
//! let board = nonohost::fake::ModelBoard::new().spawn(Box::new(board_end));
//! // … talk to `host_end` …
//! board.stop();
//! ```

use nonogram_hdl::board_model::{BoardModel, Engine};
use nonogram_hdl::link::protocol::{decode_reply, status::outcome};
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
    /// Answers END_BOARD with these bytes instead of a reply (QUERY still
    /// gets its INFO, as from any board that runs).
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
    /// The engine it starts with: the DNF engine, as a real board powers
    /// up in image 0 (the colour engine, which no flash holds yet, can be
    /// served only this way).
    pub engine: Engine,
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
            engine: Engine::Dnf,
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
        let mut stream = BoardModel::new(self.engine);
        let mut replies = 0;
        let mut buf = [0u8; 4096];
        let mut last_byte = Instant::now();
        while !stop.load(Ordering::SeqCst) {
            match port.read(&mut buf) {
                Ok(0) => return Ok(replies),
                Ok(n) => {
                    last_byte = Instant::now();
                    for &byte in &buf[..n] {
                        // A warm boot into another image: a fresh board
                        // with that image's engine (as the flash has).
                        if let Some(image) = stream.boot() {
                            stream = BoardModel::new(Engine::of_image(image));
                        }
                        if let Some(reply) = stream.byte(byte) {
                            let info = decode_reply(&reply).is_ok_and(|(r, _)| r.outcome == outcome::INFO);
                            let reply = match (&self.behaviour, reply) {
                                (Behaviour::Silent, _) => continue,
                                (Behaviour::Garbage(g), _) if !info => g.clone(),
                                (_, r) => r,
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
