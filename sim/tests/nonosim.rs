//! The `nonosim` binary as a user runs it.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn stats_are_printed_when_they_change_not_every_period_while_idle() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nonosim"))
        .args(["--backend", "rusthdl", "--stats", "0.2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nonosim");
    // Idle for about ten periods.
    std::thread::sleep(Duration::from_millis(2500));
    child.kill().ok();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    child.wait().ok();
    let stats = err
        .lines()
        .filter(|l| l.contains("cycles/s while stepping"))
        .count();
    assert!(stats >= 1, "no figures at all:\n{err}");
    assert!(stats <= 2, "an idle board repeats its figures:\n{err}");
}
