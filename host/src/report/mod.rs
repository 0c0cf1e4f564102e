//! What `send` and `solve` found, as a [`Report`]: shown as a picture with
//! its clues, or as one JSON object; and the exit code scripts see.
//!
//! How the reports come about is elsewhere: [`crate::send`] runs a `send`
//! on a port, [`crate::software`] is `solve` and the host's finish.

mod render;

use crate::link::{self, LinkError};
use crate::puzzle::Puzzle;
pub use crate::text::{plural, size_text};
use crate::wire;
pub use render::{human_seconds, render, render_styled, Style};
use render::{render_to_fit, rows_text};
use serde::Serialize;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Solved,
    NoSolution,
    Stalled,
    SeveralSolutions,
    OverCapacity,
    Malformed,
    GaveUp,
    #[default]
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

/// Everything `send` or `solve` reports. `--json` prints it as is. (The
/// default is an error with nothing known, which `new` and `error` fill.)
#[derive(Clone, Debug, Default, Serialize)]
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
    /// The board's engine that took the puzzle: "dnf" (options, protocol v1),
    /// "clues" (clues, protocol v2) or "probing" (clues, v2, probing search,
    /// up to 32×32); null when no board was asked.
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
    /// back; 0 when line logic sufficed. (The probing engine's probes are
    /// not counted as nodes.)
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
            options: wire::total_options(puzzle),
            puzzle: Some(puzzle.clone()),
            ..Report::default()
        }
    }

    /// A report on an error before any puzzle was read.
    pub fn error(file: &str, error: impl std::fmt::Display) -> Report {
        Report {
            file: file.to_string(),
            error: Some(error.to_string()),
            ..Report::default()
        }
    }

    pub fn with_error(mut self, error: impl std::fmt::Display) -> Report {
        self.status = Status::Error;
        self.error = Some(error.to_string());
        self
    }

    pub(crate) fn set_cells(&mut self, cells: Vec<Option<bool>>) {
        self.rows = rows_text(&cells, self.width);
        self.cells = cells;
    }

    /// A second solution, beside the first in `cells`.
    pub(crate) fn set_other(&mut self, other: Vec<bool>) {
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
    pub(crate) fn check_goal(mut self) -> Report {
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
                } else if self.status == Status::SeveralSolutions || self.uniqueness_checked == Some(false) {
                    // (In first-solution mode a goal that differs yet fits
                    // the clues shows that the puzzle has several.)
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
        self.to_text_with(true)
    }

    /// [`Report::to_text`], the pictures with or without their clues.
    pub fn to_text_with(&self, clues: bool) -> String {
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
                s.push_str(&render_to_fit(p, &self.cells, |_| None, clues));
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
                s.push_str(&render_to_fit(p, &cells, differ, clues));
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
            // (The board's count stops at 255.)
            let passes = self
                .passes
                .map(|p| match p {
                    u8::MAX => ", at least 255 passes".to_string(),
                    _ => format!(", {}", plural(p as u64, "pass", "passes")),
                })
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
                Some("probing") => "the probing engine".to_string(),
                _ => format!(
                    "the DNF engine, {} options stored",
                    self.board_options.map_or(self.options, |o| o as u64)
                ),
            };
            if let Some(from) = &self.switched_from {
                let from = match from.as_str() {
                    "clues" => "clue",
                    "probing" => "probing",
                    _ => "DNF",
                };
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
    fn names_the_probing_engine_and_a_saturated_pass_count() {
        let p = Puzzle::from_clues("one", vec![vec![1]], vec![vec![1]]);
        let mut r = Report::new(&p, Status::Solved);
        (r.engine, r.switched_from) = (Some("probing".into()), Some("dnf".into()));
        (r.cycles, r.board_seconds, r.passes) = (Some(1), Some(1e-8), Some(255));
        let text = r.to_text();
        assert!(
            text.contains(
                "at least 255 passes, the probing engine, after a warm boot from the DNF engine's image"
            ),
            "{text}"
        );
    }
}
