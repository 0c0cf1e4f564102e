//! What `send` and `solve` found, as a [`Report`]: shown as a picture with
//! its clues, or as one JSON object; and the exit code scripts see.
//!
//! [`send_board`] runs a whole `send` on any serial port (the real board,
//! the simulated board, or [`crate::fake::ModelBoard`] on a pty);
//! [`solve_in_software`] is `solve`.

use crate::link::{self, LinkConfig, LinkError};
use crate::puzzle::{clue_text, Puzzle};
use crate::solver::{Budget, LineOutcome, Solutions, Solver};
use crate::wire;
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::common::params::BOARD_CLOCK_HZ;
use nonogram_hdl::link::protocol::status::{detail, outcome};
use serde::Serialize;
use serialport::SerialPort;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Exit codes, for scripts.
pub mod exit {
    /// Solved, with a unique solution.
    pub const SOLVED: i32 = 0;
    /// Bad input, I/O, port, timeout, garbled reply, malformed stream.
    pub const ERROR: i32 = 1;
    /// No solution (contradiction, or zero solutions).
    pub const NO_SOLUTION: i32 = 2;
    /// Several solutions, or stalled and not completed.
    pub const SEVERAL: i32 = 3;
    /// Over the board's capacity: refused.
    pub const OVER_CAPACITY: i32 = 4;
    /// The software search gave up (`--max-time`, or Ctrl-C) before it decided.
    pub const GAVE_UP: i32 = 5;
    /// Solved, but the file's goal is not the answer: it breaks the clues,
    /// or differs from the unique solution (a warning on stderr).
    pub const GOAL_MISMATCH: i32 = 6;
}

/// The outcome, as JSON's `status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Solved,
    NoSolution,
    Stalled,
    SeveralSolutions,
    OverCapacity,
    Malformed,
    GaveUp,
    Error,
}

impl Status {
    pub fn exit_code(self) -> i32 {
        match self {
            Status::Solved => exit::SOLVED,
            Status::NoSolution => exit::NO_SOLUTION,
            Status::Stalled | Status::SeveralSolutions => exit::SEVERAL,
            Status::OverCapacity => exit::OVER_CAPACITY,
            Status::GaveUp => exit::GAVE_UP,
            Status::Malformed | Status::Error => exit::ERROR,
        }
    }
}

/// Everything `send` or `solve` reports. `--json` prints it as is.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub status: Status,
    pub file: String,
    pub title: Option<String>,
    pub width: usize,
    pub height: usize,
    /// The picture, one string per row: `#` filled, `.` empty, `?` unknown.
    /// With several solutions, the first one found. Empty when there is no
    /// picture (refused, error).
    pub rows: Vec<String>,
    /// With several solutions, a second one (same form as `rows`).
    pub other_rows: Option<Vec<String>>,
    /// Who decided the answer (its uniqueness, or that there is none):
    /// "board" (the board alone), "board+host" (the board stalled or gave up,
    /// the host finished) or "host"; null when nothing was decided.
    pub solved_by: Option<String>,
    /// The board's engine that took the puzzle: "dnf" (options, protocol v1)
    /// or "clues" (clues, protocol v2); null when no board was asked.
    pub engine: Option<String>,
    /// The board was running this other engine and rebooted into `engine`'s
    /// flash image first (SWITCH); null when it did not switch.
    pub switched_from: Option<String>,
    /// Solutions: 0, 1, or 2 meaning "two or more"; null if not decided
    /// (and in first-solution mode, when a search found the solution).
    pub solutions: Option<usize>,
    /// False when a search stopped at its first solution (`--first`), so
    /// whether it is the only one is not known; true when it was decided;
    /// null when there is no solution to speak of.
    pub uniqueness_checked: Option<bool>,
    /// Nodes of the host's search, when it searched.
    pub search_nodes: Option<u64>,
    /// Line logic alone: "solved", "stalled" or "contradiction" (board or host).
    pub line_logic: Option<String>,
    /// The board's clock cycles for the solve, and that time at 100 MHz.
    pub cycles: Option<u32>,
    pub board_seconds: Option<f64>,
    /// The board's passes over every line (saturating at 255).
    pub passes: Option<u8>,
    /// The board's search (clue engine): guesses made and times it went
    /// back; 0 when line logic sufficed. (It does not probe.)
    pub board_nodes: Option<u32>,
    pub board_backtracks: Option<u32>,
    /// Options of the puzzle (host count) and as the board counted them.
    pub options: u64,
    pub board_options: Option<u16>,
    pub bytes_sent: Option<usize>,
    pub reply_bytes: Option<usize>,
    pub send_seconds: Option<f64>,
    pub link_seconds: Option<f64>,
    pub baud: Option<u32>,
    /// A sentence on the outcome (why refused, which line emptied, …).
    pub message: Option<String>,
    /// When the file carries its intended solution (a `goal`): "match" (the
    /// answer is the goal), "other" (several solutions; the goal is another
    /// one) or "mismatch" (see `goal_message`); null otherwise.
    pub goal: Option<String>,
    pub goal_message: Option<String>,
    /// For status "error": what went wrong.
    pub error: Option<String>,
    #[serde(skip)]
    pub cells: Vec<Option<bool>>,
    #[serde(skip)]
    pub other: Option<Vec<bool>>,
    #[serde(skip)]
    pub puzzle: Option<Puzzle>,
}

impl Report {
    /// A report on `puzzle` with nothing found yet.
    pub fn new(puzzle: &Puzzle, status: Status) -> Report {
        Report {
            status,
            file: puzzle.name.clone(),
            title: puzzle.title.clone(),
            width: puzzle.width(),
            height: puzzle.height(),
            rows: Vec::new(),
            other_rows: None,
            solved_by: None,
            engine: None,
            switched_from: None,
            solutions: None,
            uniqueness_checked: None,
            search_nodes: None,
            line_logic: None,
            cycles: None,
            board_seconds: None,
            passes: None,
            board_nodes: None,
            board_backtracks: None,
            options: wire::total_options(puzzle),
            board_options: None,
            bytes_sent: None,
            reply_bytes: None,
            send_seconds: None,
            link_seconds: None,
            baud: None,
            message: None,
            goal: None,
            goal_message: None,
            error: None,
            cells: Vec::new(),
            other: None,
            puzzle: Some(puzzle.clone()),
        }
    }

    /// A report on an error before any puzzle was read.
    pub fn error(file: &str, error: impl std::fmt::Display) -> Report {
        Report {
            status: Status::Error,
            file: file.to_string(),
            title: None,
            width: 0,
            height: 0,
            rows: Vec::new(),
            other_rows: None,
            solved_by: None,
            engine: None,
            switched_from: None,
            solutions: None,
            uniqueness_checked: None,
            search_nodes: None,
            line_logic: None,
            cycles: None,
            board_seconds: None,
            passes: None,
            board_nodes: None,
            board_backtracks: None,
            options: 0,
            board_options: None,
            bytes_sent: None,
            reply_bytes: None,
            send_seconds: None,
            link_seconds: None,
            baud: None,
            message: None,
            goal: None,
            goal_message: None,
            error: Some(error.to_string()),
            cells: Vec::new(),
            other: None,
            puzzle: None,
        }
    }

    fn with_error(mut self, error: impl std::fmt::Display) -> Report {
        self.status = Status::Error;
        self.error = Some(error.to_string());
        self
    }

    fn set_cells(&mut self, cells: Vec<Option<bool>>) {
        self.rows = rows_text(&cells, self.width);
        self.cells = cells;
    }

    /// A second solution, beside the first in `cells`.
    fn set_other(&mut self, other: Vec<bool>) {
        let cells: Vec<Option<bool>> = other.iter().map(|&c| Some(c)).collect();
        self.other_rows = Some(rows_text(&cells, self.width));
        self.other = Some(other);
    }

    /// The status's exit code; [`exit::GOAL_MISMATCH`] instead of
    /// [`exit::SOLVED`] when the file's goal is not the answer.
    pub fn exit_code(&self) -> i32 {
        match self.status.exit_code() {
            exit::SOLVED if self.goal.as_deref() == Some("mismatch") => exit::GOAL_MISMATCH,
            code => code,
        }
    }

    /// The warning for stderr when the file's goal is not the answer
    /// (`"goal": "mismatch"`), whatever the outcome.
    pub fn goal_warning(&self) -> Option<String> {
        match (self.goal.as_deref(), &self.goal_message) {
            (Some("mismatch"), Some(m)) => Some(format!("warning: {}: {m}", self.file)),
            _ => None,
        }
    }

    /// Compares the answer with the file's goal, if it has one.
    fn check_goal(mut self) -> Report {
        let Some((goal, at)) = self.puzzle.as_ref().and_then(|p| p.goal.clone()) else {
            return self;
        };
        let breaks = self.puzzle.as_ref().and_then(|p| p.check_solution(&goal).err());
        let answer: Option<Vec<bool>> = self.cells.iter().copied().collect();
        let (verdict, message) = match self.status {
            Status::Solved | Status::SeveralSolutions => {
                if answer.as_ref() == Some(&goal) {
                    ("match", None)
                } else if let Some(e) = breaks {
                    (
                        "mismatch",
                        Some(format!("the goal (line {at}) breaks the clues: {e}")),
                    )
                } else if self.status == Status::SeveralSolutions {
                    ("other", Some(format!("the goal (line {at}) is another solution")))
                } else {
                    let differ = answer.map_or(0, |a| a.iter().zip(&goal).filter(|(a, b)| a != b).count());
                    (
                        "mismatch",
                        Some(format!(
                            "the goal (line {at}) differs in {differ} cells yet satisfies the clues"
                        )),
                    )
                }
            }
            Status::NoSolution => match breaks {
                Some(e) => (
                    "mismatch",
                    Some(format!("the goal (line {at}) breaks the clues too: {e}")),
                ),
                None => (
                    "mismatch",
                    Some(format!("the goal (line {at}) satisfies every clue")),
                ),
            },
            _ => return self,
        };
        self.goal = Some(verdict.into());
        self.goal_message = message;
        self
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"status\":\"error\",\"error\":\"{e}\"}}"))
    }

    /// The report for a terminal: the picture with its clues, the outcome, the numbers.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        if let Some(p) = &self.puzzle {
            let title = self
                .title
                .as_deref()
                .map(|t| format!(" \"{t}\""))
                .unwrap_or_default();
            s.push_str(&format!(
                "{}{}: {}\n",
                self.file,
                title,
                size_text(self.width, self.height)
            ));
            // With no solution, the cells line logic had fixed when a line
            // emptied would read like an answer: no grid.
            if !self.cells.is_empty() && self.status != Status::NoSolution {
                s.push_str(&render_to_fit(p, &self.cells, |_| None));
            }
            if let Some(other) = &self.other {
                // The second solution, with the cells where it differs from the first marked.
                let differ = |i: usize| {
                    (self.cells.get(i).copied().flatten() != Some(other[i])).then_some(if other[i] {
                        'X'
                    } else {
                        'o'
                    })
                };
                let n = (0..other.len()).filter(|&i| differ(i).is_some()).count();
                s.push_str(&format!(
                    "another solution, differing in {} (X: filled here, empty above; o: empty here, filled above):\n",
                    plural(n as u64, "cell", "cells")
                ));
                let cells: Vec<Option<bool>> = other.iter().map(|&c| Some(c)).collect();
                s.push_str(&render_to_fit(p, &cells, differ));
            }
        }
        let headline = match self.status {
            Status::Solved => match self.solved_by.as_deref() {
                Some("board") => "solved by the board".to_string(),
                Some("board+host") => "solved: the board stalled and the host finished it".to_string(),
                _ => "solved by the host".to_string(),
            },
            // The host finished what the board began: say so.
            Status::NoSolution | Status::SeveralSolutions
                if self.solved_by.as_deref() == Some("board+host") =>
            {
                let outcome = if self.status == Status::NoSolution {
                    "no solution"
                } else {
                    "several solutions"
                };
                format!("{outcome} (board+host)")
            }
            Status::NoSolution => "no solution".into(),
            Status::Stalled => "stalled: line logic cannot finish this puzzle".into(),
            Status::SeveralSolutions => "several solutions".into(),
            Status::OverCapacity => "refused: over the board's capacity".into(),
            Status::Malformed => "the board found the stream malformed".into(),
            Status::GaveUp => "gave up".into(),
            Status::Error => "error".into(),
        };
        s.push_str(&headline);
        if let Some(m) = &self.message {
            s.push_str(&format!(": {m}"));
        }
        if let Some(e) = &self.error {
            s.push_str(&format!(": {e}"));
        }
        s.push('\n');
        // A mismatch is a warning on stderr instead (goal_warning).
        match (self.goal.as_deref(), &self.goal_message) {
            (Some("match"), _) => s.push_str("goal: the answer is the file's goal\n"),
            (Some("other"), Some(m)) => s.push_str(&format!("goal: another solution: {m}\n")),
            _ => {}
        }
        if let (Some(c), Some(t)) = (self.cycles, self.board_seconds) {
            let passes = self
                .passes
                .map(|p| format!(", {}", plural(p as u64, "pass", "passes")))
                .unwrap_or_default();
            let search = match (self.board_nodes, self.board_backtracks) {
                (Some(n), Some(b)) if n > 0 => format!(
                    ", {}, {}",
                    plural(n as u64, "search node", "search nodes"),
                    plural(b as u64, "backtrack", "backtracks")
                ),
                _ => String::new(),
            };
            let mut engine = match self.engine.as_deref() {
                Some("clues") => "the clue engine".to_string(),
                _ => format!(
                    "the DNF engine, {} options stored",
                    self.board_options.map_or(self.options, |o| o as u64)
                ),
            };
            if let Some(from) = &self.switched_from {
                let from = if from == "clues" { "clue" } else { "DNF" };
                engine.push_str(&format!(", after a warm boot from the {from} engine's image"));
            }
            s.push_str(&format!(
                "board: {} ({}) at 100 MHz{passes}{search}, {engine}\n",
                plural(c as u64, "cycle", "cycles"),
                human_seconds(t),
            ));
        }
        if let (Some(b), Some(l)) = (self.bytes_sent, self.link_seconds) {
            let baud = self.baud.unwrap_or(link::DEFAULT_BAUD);
            s.push_str(&format!(
                "link: {b} bytes sent ({} on the wire at {baud} baud), reply {} bytes, {} in all\n",
                human_seconds(wire::wire_seconds(b as u64, baud)),
                self.reply_bytes.unwrap_or(0),
                human_seconds(l)
            ));
        } else if self.puzzle.is_some() && self.status != Status::Error {
            s.push_str(&format!("options: {}\n", wire::count_text(self.options)));
        }
        s
    }
}

/// A count and its noun, singular or plural: "1 pass", "2 passes".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A puzzle's size in sentences: "7 columns x 6 rows", "1 column x 1 row".
pub fn size_text(width: usize, height: usize) -> String {
    format!(
        "{} x {}",
        plural(width as u64, "column", "columns"),
        plural(height as u64, "row", "rows")
    )
}

/// Cells as one string per row.
fn rows_text(cells: &[Option<bool>], width: usize) -> Vec<String> {
    cells
        .chunks(width.max(1))
        .map(|row| row.iter().map(|c| cell_char(*c)).collect())
        .collect()
}

fn cell_char(c: Option<bool>) -> char {
    match c {
        Some(true) => '#',
        Some(false) => '.',
        None => '?',
    }
}

/// Seconds as "12.3 µs", "4.56 ms", "2.31 s", "7.5 minutes", "5.2 hours",
/// "3.1 days", "41 years", "6.1e8 years".
pub fn human_seconds(t: f64) -> String {
    const MINUTE: f64 = 60.0;
    const HOUR: f64 = 60.0 * MINUTE;
    const DAY: f64 = 24.0 * HOUR;
    const YEAR: f64 = 365.25 * DAY;
    if t < 1e-3 {
        format!("{:.1} µs", t * 1e6)
    } else if t < 1.0 {
        format!("{:.2} ms", t * 1e3)
    } else if t < 2.0 * MINUTE {
        format!("{t:.2} s")
    } else if t < 2.0 * HOUR {
        format!("{:.1} minutes", t / MINUTE)
    } else if t < 2.0 * DAY {
        format!("{:.1} hours", t / HOUR)
    } else if t < YEAR {
        format!("{:.1} days", t / DAY)
    } else if t < 1e4 * YEAR {
        format!("{:.0} years", t / YEAR)
    } else {
        format!("{:.1e} years", t / YEAR)
    }
}

/// The grid with row clues on the left and column clues stacked on top;
/// `mark` may show a cell (by row-major index) as another character.
pub fn render(puzzle: &Puzzle, cells: &[Option<bool>], mark: impl Fn(usize) -> Option<char>) -> String {
    let (w, h) = (puzzle.width(), puzzle.height());
    let cw = puzzle
        .columns
        .iter()
        .flatten()
        .map(|n| n.to_string().len())
        .max()
        .unwrap_or(1)
        .max(1);
    let row_text: Vec<String> = puzzle.rows.iter().map(|c| clue_text(c, " ")).collect();
    let rw = row_text.iter().map(|t| t.len()).max().unwrap_or(1);
    let depth = puzzle.columns.iter().map(|c| c.len().max(1)).max().unwrap_or(1);
    let mut s = String::new();
    for level in 0..depth {
        s.push_str(&" ".repeat(rw + 1));
        for c in 0..w {
            let clue = &puzzle.columns[c];
            let numbers: Vec<String> = if clue.is_empty() {
                vec!["0".into()]
            } else {
                clue.iter().map(|n| n.to_string()).collect()
            };
            let pad = depth - numbers.len();
            let text = if level >= pad {
                numbers[level - pad].as_str()
            } else {
                ""
            };
            s.push_str(&format!(" {text:>cw$}"));
        }
        s.push('\n');
    }
    for r in 0..h {
        s.push_str(&format!("{:>rw$} ", row_text[r]));
        for c in 0..w {
            let ch = cells.get(r * w + c).copied().flatten();
            let ch = mark(r * w + c).unwrap_or(cell_char(ch));
            s.push_str(&format!(" {ch:>cw$}"));
        }
        s.push('\n');
    }
    s
}

/// The columns of the terminal on stdout; `None` when stdout is not a
/// terminal (a pipe or a file gets the whole picture).
fn terminal_columns() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    // SAFETY: TIOCGWINSZ fills a winsize; a failure leaves it zero.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    let from_env = || std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok());
    (ok && size.ws_col > 0)
        .then_some(size.ws_col as usize)
        .or_else(from_env)
}

/// [`render`] when it fits the terminal; else the picture alone, two rows
/// to a character in half blocks; else a pointer to the picture files.
fn render_to_fit(puzzle: &Puzzle, cells: &[Option<bool>], mark: impl Fn(usize) -> Option<char>) -> String {
    let full = render(puzzle, cells, mark);
    let Some(columns) = terminal_columns() else {
        return full;
    };
    if full.lines().all(|l| l.chars().count() <= columns) {
        return full;
    }
    let (w, h) = (puzzle.width(), puzzle.height());
    if w > columns {
        return format!(
            "(the picture is {w} cells wide, wider than this terminal's {columns} columns: see --png, --svg or --json)\n"
        );
    }
    half_blocks(cells, w, h)
        + &format!(
            "(half blocks, two rows a character, without the clues, to fit {columns} columns; ░ undecided)\n"
        )
}

/// The picture two rows to a character: █ both filled, ▀ the top, ▄ the
/// bottom, ░ either undecided.
fn half_blocks(cells: &[Option<bool>], w: usize, h: usize) -> String {
    let mut s = String::new();
    for r in (0..h).step_by(2) {
        for c in 0..w {
            let top = cells[r * w + c];
            let bottom = if r + 1 < h {
                cells[(r + 1) * w + c]
            } else {
                Some(false)
            };
            s.push(match (top, bottom) {
                (None, _) | (_, None) => '░',
                (Some(true), Some(true)) => '█',
                (Some(true), Some(false)) => '▀',
                (Some(false), Some(true)) => '▄',
                (Some(false), Some(false)) => ' ',
            });
        }
        s.push('\n');
    }
    s
}

/// How `send` runs.
#[derive(Clone, Debug, Default)]
pub struct SendOptions {
    /// Send the zeros of every option too.
    pub every_cell: bool,
    /// When the board stalls, do not finish the puzzle in software.
    pub no_finish: bool,
    /// The engine to use; `None` asks the board (QUERY) and takes the clue
    /// engine when it has one.
    pub engine: Option<Engine>,
    pub link: LinkConfig,
    /// The clue engine's search budget, in units of 2^20 cycles (0: line
    /// logic alone).
    pub budget: u16,
    /// How the host's search (after a stall) is bounded and shown.
    pub search: SearchOptions,
}

/// How the host's software search is bounded and shown.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// Give up after this long.
    pub max_time: Option<Duration>,
    /// Give up when this becomes true (Ctrl-C).
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Show a spinner with the nodes searched on stderr.
    pub progress: bool,
    /// First-solution mode: any one solution will do (the board's search
    /// and the host's stop at the first; uniqueness is not checked).
    pub first: bool,
}

/// True while the host searches: Ctrl-C then stops the search instead of
/// ending the program.
pub static SEARCHING: AtomicBool = AtomicBool::new(false);

/// The budget `options` ask for, from `start`, and the spinner that shows
/// the search's progress (when asked for).
pub(crate) fn budget_of(options: &SearchOptions, start: Instant) -> (Budget, Option<indicatif::ProgressBar>) {
    let spinner = options.progress.then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        bar.set_message("searching");
        bar
    });
    let budget = Budget {
        deadline: options.max_time.map(|t| start + t),
        stop: options.interrupt.clone(),
        progress: spinner.clone().map(|bar| {
            Arc::new(move |nodes: u64| {
                bar.set_message(format!(
                    "searching: {nodes} nodes, {:.0} s",
                    start.elapsed().as_secs_f64()
                ));
                bar.tick();
            }) as Arc<dyn Fn(u64) + Send + Sync>
        }),
    };
    (budget, spinner)
}

/// Searches for up to two solutions from the known cells, within `options`.
fn search(puzzle: &Puzzle, known: &[Option<bool>], options: &SearchOptions) -> Solutions {
    let (budget, spinner) = budget_of(options, Instant::now());
    let mut solver = Solver::new();
    solver.set_budget(budget);
    SEARCHING.store(true, Ordering::SeqCst);
    let limit = if options.first { 1 } else { 2 };
    let found = solver.count_from(&puzzle.rows, &puzzle.columns, Some(known), limit);
    SEARCHING.store(false, Ordering::SeqCst);
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    found
}

/// Finishes `report` by search from the cells line logic left (`known`,
/// with `unknown` of them unknown); `by` is who solved it if the solution
/// is unique ("host" or "board+host"), `before` says where the cells came from.
fn finish_by_search(
    puzzle: &Puzzle,
    mut report: Report,
    known: &[Option<bool>],
    by: &str,
    before: &str,
    options: &SearchOptions,
) -> Report {
    let unknown = known.iter().filter(|c| c.is_none()).count();
    let found = search(puzzle, known, options);
    report.search_nodes = Some(found.nodes);
    let nodes = plural(found.nodes, "node", "nodes");
    let unknown = plural(unknown as u64, "cell", "cells");
    if found.gave_up && found.count < 2 {
        let why = if options
            .interrupt
            .as_ref()
            .is_some_and(|i| i.load(Ordering::Relaxed))
        {
            "interrupted".to_string()
        } else {
            format!(
                "--max-time {} s ran out",
                options.max_time.map_or(0.0, |t| t.as_secs_f64())
            )
        };
        report.status = Status::GaveUp;
        report.set_cells(found.fixed);
        let so_far = if found.count == 1 {
            "one solution found so far, uniqueness not decided"
        } else {
            "no solution found yet"
        };
        report.message = Some(format!(
            "{before} left {unknown} unknown; the search {why} after {nodes} ({so_far}); the grid shows the cells it had fixed"
        ));
        return report;
    }
    for solution in [&found.first, &found.second].into_iter().flatten() {
        if let Err(e) = puzzle.check_solution(solution) {
            return report.with_error(format!(
                "internal error, the search's solution breaks the clues: {e}"
            ));
        }
    }
    report.solutions = Some(found.count.min(2));
    match (found.first, found.second) {
        (Some(first), None) if options.first => {
            report.status = Status::Solved;
            report.solved_by = Some(by.into());
            report.solutions = None;
            report.uniqueness_checked = Some(false);
            report.message = Some(format!(
                "{before} left {unknown} unknown; search found a solution ({nodes}; first-solution mode: uniqueness not checked)"
            ));
            report.set_cells(first.into_iter().map(Some).collect());
        }
        (Some(first), None) => {
            report.status = Status::Solved;
            report.solved_by = Some(by.into());
            report.uniqueness_checked = Some(true);
            report.message = Some(format!(
                "{before} left {unknown} unknown; search found a unique solution ({nodes})"
            ));
            report.set_cells(first.into_iter().map(Some).collect());
        }
        (Some(first), Some(second)) => {
            report.status = Status::SeveralSolutions;
            report.uniqueness_checked = Some(true);
            report.solved_by = Some(by.into());
            report.message = Some(format!(
                "{before} left {unknown} unknown; search found two solutions or more ({nodes})"
            ));
            report.set_cells(first.into_iter().map(Some).collect());
            report.set_other(second);
        }
        _ => {
            report.status = Status::NoSolution;
            report.solved_by = Some(by.into());
            report.message = Some(format!(
                "{before} left {unknown} unknown; search found no solution ({nodes})"
            ));
        }
    }
    report
}

/// The engine for `puzzle` on a board running `running` whose flash holds
/// the `images` set: the one `forced`; else the DNF engine (the mission's
/// engine and the power-up image) when the puzzle fits it and line logic
/// decides it; else the clue engine, which also searches, when the board
/// has it; else the one running.
pub fn choose_engine(puzzle: &Puzzle, forced: Option<Engine>, running: Engine, images: u8) -> Engine {
    let available = |e: Engine| e == running || images >> e.image() & 1 == 1;
    let dnf_decides = || {
        wire::check_capacity(puzzle).is_ok()
            && crate::solver::line_solve(&puzzle.rows, &puzzle.columns).outcome
                != crate::solver::LineOutcome::Stalled
    };
    match forced {
        Some(e) => e,
        None if available(Engine::Dnf) && (!available(Engine::Clues) || dnf_decides()) => Engine::Dnf,
        None if available(Engine::Clues) => Engine::Clues,
        None => running,
    }
}

fn refusal_text(d: u8) -> &'static str {
    match d {
        detail::BAD_SIZE => "bad size",
        detail::UNEXPECTED => "a message where the protocol does not allow it",
        detail::CELL_OUT_OF_LINE => "a cell outside its line",
        detail::WRONG_LINE => "a line out of order, or END_BOARD too early",
        detail::FIFO_FULL => "the option FIFO is full",
        detail::TRUNCATED => "the stream stopped in the middle of a message",
        detail::FRAMING => "a byte arrived with a framing error",
        detail::NO_ENGINE => "the board has no engine for this protocol version (try --engine)",
        detail::TOO_MANY_BLOCKS => "too many blocks for the clue engine",
        _ => "no detail",
    }
}

/// `send`: refuses a puzzle over capacity, sends it on `port`, and turns
/// the board's reply into a report (finishing a stalled board in software
/// unless `no_finish`). The port must already be set to the right baud.
pub fn send_board(puzzle: &Puzzle, mut port: Box<dyn SerialPort>, options: &SendOptions) -> Report {
    let mut report = Report::new(puzzle, Status::Error);
    report.baud = Some(options.link.baud);
    // Ask the board what it runs and what its flash holds. A board that
    // does not answer QUERY (the original design's) has the DNF engine.
    let mut info = link::query(port.as_mut(), &options.link).ok();
    let (running, images) = info.as_ref().map_or((Engine::Dnf, 0), link::running);
    let engine = choose_engine(puzzle, options.engine, running, images);
    report.engine = Some(engine.name().into());
    if info.is_some() && engine != running {
        if images >> engine.image() & 1 == 0 {
            report.status = Status::OverCapacity;
            report.message = Some(format!(
                "this board has the {} engine only (its flash holds no {} image)",
                running.name(),
                engine.name()
            ));
            return report;
        }
        match link::switch_engine(port.as_mut(), engine, &options.link) {
            Ok(new_info) => info = Some(new_info),
            Err(e) => return report.with_error(e),
        }
        report.switched_from = Some(running.name().into());
    }
    let fits = match engine {
        Engine::Dnf => wire::check_capacity(puzzle),
        Engine::Clues => {
            // Capacity from the board's INFO when it sent one.
            use nonogram_hdl::clue::clue_model::{CLUE_STORE_BLOCKS, MAX_SIDE};
            let max_side = info.as_ref().map_or(MAX_SIDE, |i| i.max_line as usize);
            let store = info
                .as_ref()
                .map_or(CLUE_STORE_BLOCKS, |i| 1usize << i.clue_store_bits.min(16));
            wire::check_clue_capacity(puzzle, max_side, store)
        }
    };
    if let Err(over) = fits {
        report.status = Status::OverCapacity;
        report.message = Some(over.message);
        return report;
    }
    let exchange = match link::send_puzzle(
        port.as_mut(),
        puzzle,
        engine,
        options.every_cell,
        options.budget,
        options.search.first,
        &options.link,
    ) {
        Ok(e) => e,
        Err(e) => return report.with_error(e),
    };
    report_reply(puzzle, report, &exchange, options.no_finish, &options.search).check_goal()
}

/// Turns a board's reply into a report.
pub fn report_reply(
    puzzle: &Puzzle,
    mut report: Report,
    ex: &link::Exchange,
    no_finish: bool,
    search: &SearchOptions,
) -> Report {
    let reply = &ex.reply;
    let (w, h) = (puzzle.width(), puzzle.height());
    report.bytes_sent = Some(ex.bytes_sent);
    report.reply_bytes = Some(ex.reply_bytes.len());
    report.send_seconds = Some(ex.send_seconds);
    report.link_seconds = Some(ex.link_seconds);
    report.cycles = Some(reply.cycles);
    report.board_seconds = Some(reply.cycles as f64 / BOARD_CLOCK_HZ as f64);
    report.passes = Some(reply.passes);
    report.board_options = Some(reply.options);
    if report.engine.as_deref() == Some("clues") {
        report.board_nodes = Some(reply.nodes);
        report.board_backtracks = Some(reply.backtracks);
    }
    let searched = reply.nodes > 0;
    let search_text = format!(
        "the board searched {} with {}",
        plural(reply.nodes as u64, "node", "nodes"),
        plural(reply.backtracks as u64, "backtrack", "backtracks")
    );
    match reply.outcome {
        outcome::OVER_CAPACITY => {
            report.status = Status::OverCapacity;
            report.message = Some(format!("the board refused it: {}", refusal_text(reply.detail)));
            return report;
        }
        outcome::MALFORMED => {
            report.status = Status::Malformed;
            report.message = Some(format!(
                "{} (the reply: {})",
                refusal_text(reply.detail),
                link::hex(&ex.reply_bytes)
            ));
            return report;
        }
        outcome::SOLVED | outcome::STALLED | outcome::CONTRADICTION | outcome::SEVERAL | outcome::GAVE_UP => {
        }
        outcome::INFO => return report.with_error("the board sent an INFO reply instead of a board"),
        o => return report.with_error(format!("the board sent an unknown outcome {o}")),
    }
    if (reply.rows, reply.columns) != (h, w) {
        return report.with_error(format!(
            "the board answered for a {} x {} board, not {w} x {h} (columns x rows)",
            reply.columns, reply.rows
        ));
    }
    let cells = if reply.cells.is_empty() {
        vec![None; w * h]
    } else {
        reply.cells.clone()
    };
    report.set_cells(cells.clone());
    match reply.outcome {
        outcome::SOLVED => {
            report.line_logic = Some(if searched { "stalled" } else { "solved" }.into());
            let Some(picture) = cells.iter().copied().collect::<Option<Vec<bool>>>() else {
                return report.with_error("the board says solved but sent unknown cells");
            };
            if let Err(e) = puzzle.check_solution(&picture) {
                return report.with_error(format!(
                    "the board says solved but its picture breaks the clues: {e}"
                ));
            }
            report.status = Status::Solved;
            report.solutions = Some(1);
            report.uniqueness_checked = Some(true);
            report.solved_by = Some("board".into());
            if searched && reply.detail == nonogram_hdl::clue::clue_model::FIRST_FOUND {
                report.solutions = None;
                report.uniqueness_checked = Some(false);
                report.message = Some(format!(
                    "{search_text}: a solution (first-solution mode: uniqueness not checked)"
                ));
            } else if searched {
                report.message = Some(format!("{search_text}: the solution is unique"));
            }
        }
        outcome::SEVERAL => {
            report.line_logic = Some("stalled".into());
            let first: Option<Vec<bool>> = cells.iter().copied().collect();
            let Some(first) = first.filter(|_| reply.differs.len() == w * h) else {
                return report.with_error("the board says several solutions but sent an incomplete pair");
            };
            let second: Vec<bool> = first.iter().zip(&reply.differs).map(|(a, d)| a ^ d).collect();
            for (name, grid) in [("first", &first), ("second", &second)] {
                if let Err(e) = puzzle.check_solution(grid) {
                    return report.with_error(format!(
                        "the board says several solutions but its {name} breaks the clues: {e}"
                    ));
                }
            }
            if first == second {
                return report.with_error("the board says several solutions but sent the same one twice");
            }
            report.status = Status::SeveralSolutions;
            report.uniqueness_checked = Some(true);
            report.solutions = Some(2);
            report.solved_by = Some("board".into());
            report.message = Some(format!("{search_text}: two solutions or more"));
            report.set_other(second);
        }
        outcome::CONTRADICTION => {
            report.status = Status::NoSolution;
            report.solutions = Some(0);
            let line = reply.detail as usize;
            if searched {
                report.line_logic = Some("stalled".into());
                report.solved_by = Some("board".into());
                report.message = Some(format!("{search_text}: no guess led to a solution"));
            } else {
                report.line_logic = Some("contradiction".into());
                report.solved_by = Some("board".into());
                report.message = Some(if line < w + h {
                    format!("{} lost all its options", puzzle.line_name(line))
                } else {
                    "a line lost all its options".into()
                });
            }
        }
        _ => {
            // The board stalled (line logic alone), or its search gave up
            // and sent line logic's cells: the host finishes from those.
            report.line_logic = Some("stalled".into());
            let unknown = cells.iter().filter(|c| c.is_none()).count();
            let (status, before) = if reply.outcome == outcome::GAVE_UP {
                use nonogram_hdl::clue::clue_model::{TRAIL_ENTRIES, TRAIL_RAN_OUT};
                let why = if reply.detail == TRAIL_RAN_OUT {
                    format!(
                        "gave up: {unknown} unknown cells are more than its undo trail holds ({TRAIL_ENTRIES}; \
                         the host searches them instead)"
                    )
                } else {
                    "ran out of its budget (--budget sets it)".to_string()
                };
                (Status::GaveUp, format!("{search_text} and {why}; line logic"))
            } else {
                (Status::Stalled, "the board stalled and".to_string())
            };
            if no_finish {
                report.status = status;
                report.message = Some(format!(
                    "{before} left {} unknown",
                    plural(unknown as u64, "cell", "cells")
                ));
                return report;
            }
            return finish_by_search(puzzle, report, &cells, "board+host", &before, search);
        }
    }
    report
}

/// `solve`: line logic, then search when it stalls.
pub fn solve_in_software(puzzle: &Puzzle, options: &SearchOptions) -> Report {
    let mut report = Report::new(puzzle, Status::Error);
    let mut solver = Solver::new();
    let lines = solver.line_solve(&puzzle.rows, &puzzle.columns);
    report.set_cells(lines.cells.clone());
    match lines.outcome {
        LineOutcome::Solved => {
            report.line_logic = Some("solved".into());
            let picture: Vec<bool> = lines.cells.iter().map(|c| *c == Some(true)).collect();
            if let Err(e) = puzzle.check_solution(&picture) {
                return report.with_error(format!("internal error, the solution breaks the clues: {e}"));
            }
            report.status = Status::Solved;
            report.solutions = Some(1);
            report.uniqueness_checked = Some(true);
            report.solved_by = Some("host".into());
            report.message = Some("by line logic alone".into());
        }
        LineOutcome::Contradiction => {
            report.line_logic = Some("contradiction".into());
            report.solved_by = Some("host".into());
            report.status = Status::NoSolution;
            report.solutions = Some(0);
            if let Some(line) = lines.contradiction_line {
                report.message = Some(format!("{} has no option left", puzzle.line_name(line)));
            }
        }
        LineOutcome::Stalled => {
            report.line_logic = Some("stalled".into());
            return finish_by_search(puzzle, report, &lines.cells, "host", "line logic", options)
                .check_goal();
        }
    }
    report.check_goal()
}

/// Error on a link before any reply (kept public for callers that open ports themselves).
pub fn link_error_report(puzzle: &Puzzle, e: &LinkError) -> Report {
    Report::new(puzzle, Status::Error).with_error(e)
}

/// A usage or input error: on stderr, and as `{"status": "error", "error": …}`
/// on stdout with `--json`. Returns the exit code.
pub fn usage_error(error: &dyn std::fmt::Display, json: bool) -> i32 {
    eprintln!("error: {error}");
    if json {
        println!(
            "{}",
            serde_json::json!({"status": "error", "error": error.to_string()})
        );
    }
    exit::ERROR
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_blocks_draw_two_rows_a_character() {
        let cells = [Some(true), Some(false), None, Some(true), Some(true), Some(false)];
        // 2 columns x 3 rows: rows (#.) (?#) (#.).
        assert_eq!(half_blocks(&cells, 2, 3), "░▄\n▀ \n");
    }

    #[test]
    fn counts_of_one_are_singular() {
        let p = Puzzle::from_clues("one", vec![vec![1]], vec![vec![1]]);
        let mut r = Report::new(&p, Status::Solved);
        r.engine = Some("clues".into());
        (r.cycles, r.board_seconds, r.passes) = (Some(1), Some(1e-8), Some(1));
        (r.board_nodes, r.board_backtracks) = (Some(1), Some(1));
        let text = r.to_text();
        assert!(text.starts_with("one: 1 column x 1 row\n"), "{text}");
        assert!(
            text.contains(
                "board: 1 cycle (0.0 µs) at 100 MHz, 1 pass, 1 search node, 1 backtrack, the clue engine"
            ),
            "{text}"
        );
        r.passes = Some(2);
        (r.board_nodes, r.board_backtracks) = (Some(3), Some(0));
        assert!(
            r.to_text().contains(", 2 passes, 3 search nodes, 0 backtracks,"),
            "{}",
            r.to_text()
        );
    }

    #[test]
    fn renders_clues_around_the_picture() {
        let p = Puzzle::from_clues(
            "t",
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        );
        let r = solve_in_software(&p, &SearchOptions::default());
        assert_eq!(r.status, Status::Solved);
        let text = render(&p, &r.cells, |_| None);
        let expected = "       1 1  \n     1 1 1 3\n  2  . # # .\n1 1  # . . #\n  3  . # # #\n  1  . . . #\n";
        assert_eq!(text, expected, "\n{text}");
    }
}
