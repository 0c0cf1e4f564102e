//! What `solve` found on a colour puzzle: text with the picture in its
//! colours, or one JSON object with the same field names as the
//! black-and-white [`crate::Report`] where they mean the same.

use super::line::Cell;
use super::picture::{ansi_rows, shade, Grid};
use super::search::{solve, Found};
use super::{ColourPuzzle, Rule};
use crate::report::{plural, size_text, Status};
use crate::software::{budget_of, SearchOptions, SEARCHING};
use crate::solver::LineOutcome;
use serde::Serialize;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A palette entry as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct ColourJson {
    pub name: String,
    /// The character the rows use for it.
    pub char: char,
    /// `#rrggbb`, or null when the file gives none.
    pub rgb: Option<String>,
}

/// Everything `solve` reports on a colour puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct ColourReport {
    pub status: Status,
    pub file: String,
    pub title: Option<String>,
    pub width: usize,
    pub height: usize,
    /// "blocks" (webpbn, .g, .non) or "counts" (TPDNE).
    pub rule: &'static str,
    pub colours: Vec<ColourJson>,
    /// The picture, one string per row, in the colours' characters (`.`
    /// for the background of a block puzzle, the digits 0-3 for TPDNE),
    /// `?` where undecided. With several solutions, the first found.
    pub rows: Vec<String>,
    /// With several solutions, a second one.
    pub other_rows: Option<Vec<String>>,
    pub solved_by: Option<String>,
    /// 0, 1, or 2 meaning "two or more"; null if not decided.
    pub solutions: Option<usize>,
    /// False when `--first` stopped at the first solution.
    pub uniqueness_checked: Option<bool>,
    pub search_nodes: Option<u64>,
    pub line_logic: Option<String>,
    pub message: Option<String>,
    /// "match", "other" or "mismatch" against the file's goal; null without one.
    pub goal: Option<String>,
    pub goal_message: Option<String>,
    pub error: Option<String>,
    /// From the board (`send`), as in the black-and-white report: its
    /// engine ("colour"), clock cycles, their time at 100 MHz, its search
    /// nodes and backtracks, and the bytes sent.
    pub engine: Option<String>,
    pub cycles: Option<u32>,
    pub board_seconds: Option<f64>,
    pub board_nodes: Option<u32>,
    pub board_backtracks: Option<u32>,
    pub bytes_sent: Option<usize>,
    #[serde(skip)]
    pub puzzle: ColourPuzzle,
    /// Each cell's possible colours (one bit each when decided).
    #[serde(skip)]
    pub cells: Vec<Cell>,
    #[serde(skip)]
    pub other: Option<Vec<u8>>,
}

/// `solve` on a colour puzzle: line logic, probing and search.
pub fn solve_colour(puzzle: &ColourPuzzle, options: &SearchOptions) -> ColourReport {
    let (budget, spinner) = budget_of(options, Instant::now());
    SEARCHING.store(true, Ordering::SeqCst);
    let found = solve(puzzle, if options.first { 1 } else { 2 }, &budget);
    SEARCHING.store(false, Ordering::SeqCst);
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    ColourReport::from_found(puzzle, found, options.first)
}

impl ColourReport {
    /// A report on `puzzle` with nothing found yet (status Error).
    pub fn blank(puzzle: &ColourPuzzle) -> ColourReport {
        ColourReport {
            status: Status::Error,
            file: puzzle.name.clone(),
            title: puzzle.title.clone(),
            width: puzzle.width(),
            height: puzzle.height(),
            rule: match puzzle.rule {
                Rule::Blocks => "blocks",
                Rule::Counts => "counts",
            },
            colours: puzzle
                .colours
                .iter()
                .enumerate()
                .map(|(i, c)| ColourJson {
                    name: c.name.clone(),
                    char: row_char(puzzle, i),
                    rgb: c.rgb.map(|[r, g, b]| format!("#{r:02x}{g:02x}{b:02x}")),
                })
                .collect(),
            rows: Vec::new(),
            other_rows: None,
            solved_by: None,
            solutions: None,
            uniqueness_checked: None,
            search_nodes: None,
            line_logic: None,
            message: None,
            goal: None,
            goal_message: None,
            error: None,
            engine: None,
            cycles: None,
            board_seconds: None,
            board_nodes: None,
            board_backtracks: None,
            bytes_sent: None,
            puzzle: puzzle.clone(),
            cells: Vec::new(),
            other: None,
        }
    }

    /// The report on what a search found (`first`: in first-solution
    /// mode), decided by the host; [`super::send`] makes the board's
    /// answers into a `Found` too.
    pub(crate) fn from_found(puzzle: &ColourPuzzle, found: Found, first: bool) -> ColourReport {
        let mut r = ColourReport {
            solved_by: Some("host".into()),
            search_nodes: (found.line_logic == Some(LineOutcome::Stalled)).then_some(found.nodes),
            line_logic: found.line_logic.map(|o| {
                match o {
                    LineOutcome::Solved => "solved",
                    LineOutcome::Stalled => "stalled",
                    LineOutcome::Contradiction => "contradiction",
                }
                .to_string()
            }),
            cells: found.line_cells.clone(),
            ..ColourReport::blank(puzzle)
        };
        let one = |c: &[u8]| c.iter().map(|&x| 1 << x).collect::<Vec<Cell>>();
        // Every answer is held against the clues before it is shown.
        for s in found.first.iter().chain(&found.second) {
            if let Err(e) = puzzle.check_solution(s) {
                r.status = Status::Error;
                r.solved_by = None;
                r.error = Some(format!("internal error, a solution breaks the clues: {e}"));
                return r;
            }
        }
        match (&found.first, &found.second) {
            (Some(a), Some(b)) => {
                r.status = Status::SeveralSolutions;
                r.solutions = Some(2);
                r.uniqueness_checked = Some(true);
                r.cells = one(a);
                r.other = Some(b.clone());
            }
            (Some(a), None) if found.gave_up => {
                r.status = Status::GaveUp;
                r.cells = one(a);
                r.solved_by = None;
                r.message = Some(format!(
                    "one solution found in {}; gave up before deciding whether it is the only one",
                    searched(&found)
                ));
            }
            (Some(a), None) => {
                r.status = Status::Solved;
                r.cells = one(a);
                if first && found.line_logic != Some(LineOutcome::Solved) {
                    r.uniqueness_checked = Some(false);
                    r.message = Some("the first solution found (--first: uniqueness not checked)".into());
                } else {
                    r.solutions = Some(1);
                    r.uniqueness_checked = Some(true);
                }
                if found.line_logic == Some(LineOutcome::Solved) {
                    r.message = Some("by line logic alone".into());
                }
            }
            (None, _) if found.gave_up => {
                r.status = Status::GaveUp;
                r.solved_by = None;
                r.message = Some(format!("gave up after {}", searched(&found)));
            }
            (None, _) => {
                r.status = Status::NoSolution;
                r.solutions = Some(0);
            }
        }
        r.rows = rows_text(puzzle, &r.cells);
        if let Some(other) = &r.other {
            r.other_rows = Some(rows_text(puzzle, &one(other)));
        }
        r.check_goal()
    }

    fn check_goal(mut self) -> ColourReport {
        let Some((goal, at)) = self.puzzle.goal.clone() else {
            return self;
        };
        let line = if at > 0 {
            format!(" (line {at})")
        } else {
            String::new()
        };
        let breaks = self.puzzle.check_solution(&goal).err();
        let answer: Option<Vec<u8>> = self
            .cells
            .iter()
            .map(|c| (c.count_ones() == 1).then(|| c.trailing_zeros() as u8))
            .collect();
        let (verdict, message) = match (self.status, breaks) {
            (Status::Solved | Status::SeveralSolutions, _) if answer.as_ref() == Some(&goal) => {
                ("match", None)
            }
            (Status::Solved | Status::SeveralSolutions, Some(e)) => {
                ("mismatch", Some(format!("the goal{line} breaks the clues: {e}")))
            }
            (Status::SeveralSolutions, None) => {
                ("other", Some(format!("the goal{line} is another solution")))
            }
            (Status::Solved, None) if self.uniqueness_checked == Some(false) => {
                ("other", Some(format!("the goal{line} is another solution")))
            }
            (Status::Solved, None) => (
                "mismatch",
                Some(format!(
                    "the goal{line} satisfies the clues yet differs from the unique solution"
                )),
            ),
            (Status::NoSolution, Some(e)) => (
                "mismatch",
                Some(format!("the goal{line} breaks the clues too: {e}")),
            ),
            (Status::NoSolution, None) => ("mismatch", Some(format!("the goal{line} satisfies every clue"))),
            _ => return self,
        };
        self.goal = Some(verdict.into());
        self.goal_message = message;
        self
    }

    /// The exit code: as for black and white, [`crate::exit::GOAL_MISMATCH`]
    /// when solved but not the file's goal.
    pub fn exit_code(&self) -> i32 {
        match self.status.exit_code() {
            crate::exit::SOLVED if self.goal.as_deref() == Some("mismatch") => crate::exit::GOAL_MISMATCH,
            code => code,
        }
    }

    pub fn goal_warning(&self) -> Option<String> {
        match (self.goal.as_deref(), &self.goal_message) {
            (Some("mismatch"), Some(m)) => Some(format!("warning: {}: {m}", self.file)),
            _ => None,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"status\":\"error\",\"error\":\"{e}\"}}"))
    }

    /// The grids to draw: the answer, and the second solution if any.
    pub fn grids(&self) -> Vec<Grid> {
        let p = &self.puzzle;
        let colour = |c: Cell| {
            (c.count_ones() == 1).then(|| {
                let i = c.trailing_zeros() as usize;
                shade(p.colours[i].rgb, i)
            })
        };
        let mut grids = vec![Grid {
            width: p.width(),
            height: p.height(),
            cells: self.cells.iter().map(|&c| colour(c)).collect(),
        }];
        if let Some(other) = &self.other {
            grids.push(Grid {
                width: p.width(),
                height: p.height(),
                cells: other.iter().map(|&c| colour(1 << c)).collect(),
            });
        }
        grids
    }

    /// The report for a terminal; `truecolour` draws cells in their colours.
    pub fn to_text(&self, truecolour: bool) -> String {
        let p = &self.puzzle;
        let mut s = String::new();
        let title = self
            .title
            .as_deref()
            .map(|t| format!(" \"{t}\""))
            .unwrap_or_default();
        let inks = p.colours.len() - usize::from(p.rule == Rule::Blocks);
        s.push_str(&format!(
            "{}{}: {}, {}\n",
            self.file,
            title,
            size_text(self.width, self.height),
            plural(inks as u64, "colour", "colours")
        ));
        let grids = self.grids();
        let draw = |s: &mut String, i: usize, rows: &[String]| {
            let lines = if truecolour {
                ansi_rows(&grids[i])
            } else {
                rows.to_vec()
            };
            for l in lines {
                s.push_str(&l);
                s.push('\n');
            }
        };
        if self.status != Status::NoSolution && !self.cells.is_empty() {
            draw(&mut s, 0, &self.rows);
        }
        if let (Some(other), Some(rows)) = (&self.other, &self.other_rows) {
            let first: Vec<u8> = self.cells.iter().map(|c| c.trailing_zeros() as u8).collect();
            let differ = first.iter().zip(other).filter(|(a, b)| a != b).count();
            s.push_str(&format!(
                "another solution, differing in {}:\n",
                plural(differ as u64, "cell", "cells")
            ));
            draw(&mut s, 1, rows);
        }
        let legend: Vec<String> = self
            .colours
            .iter()
            .map(|c| {
                let name = (c.name != c.char.to_string()
                    && !c.rgb.as_ref().is_some_and(|v| v.eq_ignore_ascii_case(&c.name)))
                .then(|| format!(" {}", c.name))
                .unwrap_or_default();
                let value = c.rgb.as_ref().map(|v| format!(" ({v})")).unwrap_or_default();
                format!("{}{name}{value}", c.char)
            })
            .collect();
        s.push_str(&format!("colours: {}\n", legend.join(", ")));
        let by = match self.solved_by.as_deref() {
            Some("board") => "by the board",
            Some("board+host") => "by the board and the host",
            _ => "by the host",
        };
        let headline = match self.status {
            Status::Solved if self.uniqueness_checked == Some(false) => format!("solved {by}"),
            Status::Solved => format!("solved {by}, the only solution"),
            Status::SeveralSolutions => "several solutions".into(),
            Status::NoSolution => "no solution".into(),
            Status::GaveUp => "gave up".into(),
            Status::Stalled => "stalled: line logic cannot finish this puzzle".into(),
            Status::OverCapacity => "refused: over the board's capacity".into(),
            Status::Malformed => "the board found the stream malformed".into(),
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
        match (self.goal.as_deref(), &self.goal_message) {
            (Some("match"), _) => s.push_str("goal: the answer is the file's goal\n"),
            (Some("other"), Some(m)) => s.push_str(&format!("goal: another solution: {m}\n")),
            _ => {}
        }
        if let Some(n) = self.search_nodes {
            s.push_str(&format!("search: {}\n", plural(n, "node", "nodes")));
        }
        if let (Some(c), Some(t)) = (self.cycles, self.board_seconds) {
            s.push_str(&format!(
                "board: {} clock cycles, {:.3} ms at 100 MHz\n",
                c,
                t * 1e3
            ));
        }
        s
    }
}

/// The character rows use for palette entry `i`: `.` for a block puzzle's
/// background, else the colour's own.
fn row_char(p: &ColourPuzzle, i: usize) -> char {
    if p.rule == Rule::Blocks && i == 0 {
        '.'
    } else {
        p.colours[i].ch
    }
}

pub(crate) fn rows_text(p: &ColourPuzzle, cells: &[Cell]) -> Vec<String> {
    cells
        .chunks(p.width().max(1))
        .map(|row| {
            row.iter()
                .map(|&c| {
                    if c.count_ones() == 1 {
                        row_char(p, c.trailing_zeros() as usize)
                    } else {
                        '?'
                    }
                })
                .collect()
        })
        .collect()
}

/// "40 search nodes", and ", then the SAT solver" when it took over.
fn searched(found: &Found) -> String {
    let nodes = plural(found.nodes, "search node", "search nodes");
    if found.by_sat {
        format!("{nodes}, then the SAT solver")
    } else {
        nodes
    }
}
