//! Progress on stderr: a bar for batches (census, sweep, tournament), a
//! spinner that ticks by itself for waits (line logic, search, the board).
//! Each is hidden when not wanted, so callers draw on it either way.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Progress is wanted: not `--quiet`, not `--json`, and stderr is a
/// terminal (a log file gets no bars).
pub fn wanted(quiet: bool, json: bool) -> bool {
    !quiet && !json && std::io::stderr().is_terminal()
}

/// A bar of `len` steps drawn with indicatif's `template`, or a hidden bar.
pub fn bar(show: bool, len: u64, template: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// A spinner on stderr drawn with `template` (`{spinner}`, `{msg}`,
/// `{elapsed}`), ticking every 100 ms, or a hidden one.
pub fn spinner(show: bool, template: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}
