//! A model board on a pseudo-terminal, for trying `nonohost send` without
//! hardware: `cargo run -p nonohost --example model_board` prints a port
//! name; then `nonohost send --port THAT_NAME examples/heart6x7.txt`.
//! Runs until killed (or for the number of seconds given).

use nonohost::fake::ModelBoard;
use serialport::{SerialPort, TTYPort};
use std::time::Duration;

fn main() {
    let seconds: Option<u64> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    let (board_end, host_end) = TTYPort::pair().expect("a pseudo-terminal");
    println!("{}", host_end.name().unwrap_or_default());
    let running = ModelBoard::new().spawn(Box::new(board_end));
    match seconds {
        Some(s) => std::thread::sleep(Duration::from_secs(s)),
        None => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
    }
    drop(host_end);
    let _ = running.stop();
}
