//! The colour engine on colour puzzles (`sweep --engine colour --inks N`):
//! random pictures of 1 to N inks, their clues sent to the colour core as
//! protocol v3.
//!
//! Two checks a puzzle:
//! * the core's reply is the colour model's, byte for byte
//!   (`board_model::colour_reply`): every cell's colours, both solutions of
//!   SEVERAL, the outcome, the cycles and the search's counts;
//! * the model's verdict is the software colour solver's
//!   ([`crate::colour::search`], an independent solver): where line logic
//!   alone decided, the same colours in every cell; where the engine
//!   searched, the same single solution, or two solutions that both keep
//!   the clues when the software finds several.

use super::run::{budget, Core, CLOCKS_PER_BIT};
use super::{Config, Disagreement};
use crate::colour::search::{solve, Found};
use crate::colour::{engine_clues, ColourPuzzle};
use crate::solver::{Budget, LineOutcome};
use nonogram_hdl::board_model::colour_reply;
use nonogram_hdl::clue::clue_model::{FIRST_FOUND, SEARCHED};
use nonogram_hdl::colour::colour_protocol::{self as v3, ColourReply};
use nonogram_hdl::colour::model::{self as colour_model, ColourMode, ColourVerdict};
use nonogram_hdl::link::protocol::status::outcome;
use nonogram_hdl::link::protocol::ReplyError;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The software solver's time a puzzle: past it, its verdict is not held
/// against the model's (counted as `software_gave_up`).
const SOFTWARE_SECONDS: u64 = 20;

/// One colour puzzle's run through the core, the model and the software.
pub struct InkRun {
    pub verdict: ColourVerdict,
    pub differences: Vec<String>,
    pub simulated_cycles: u64,
    pub bytes_sent: u64,
    /// The software solver ran out of time, so only the core was checked.
    pub software_gave_up: bool,
}

/// A colour puzzle on which they disagree.
#[derive(Clone, Debug)]
pub struct InkFailure {
    pub puzzle: ColourPuzzle,
    pub differences: Vec<String>,
    pub file: Option<PathBuf>,
}

impl Core {
    /// Runs a colour puzzle that fits the colour engine.
    pub fn run_inks(&mut self, puzzle: &ColourPuzzle) -> InkRun {
        let (rows, columns) = (puzzle.height(), puzzle.width());
        let inks = puzzle.colours.len() - 1;
        let (row_clues, column_clues) = (engine_clues(&puzzle.rows), engine_clues(&puzzle.columns));
        let mode = ColourMode {
            budget: self.budget,
            first: self.first,
        };
        let verdict = colour_model::solve(&row_clues, &column_clues, inks + 1, mode);
        let want = colour_reply(rows, columns, inks, &verdict);
        let mut bytes = Vec::new();
        v3::encode_board(
            &row_clues,
            &column_clues,
            inks,
            self.budget,
            self.first,
            &mut bytes,
        );
        let wait = budget(CLOCKS_PER_BIT, bytes.len(), want.len(), verdict.cycles);
        let (got, mut differences, simulated_cycles) = self.exchange(&bytes, wait, whole_reply);
        if let Some(got) = got.filter(|got| *got != want) {
            differences.push(reply_difference(&got, &want));
        }
        let deadline = Some(Instant::now() + Duration::from_secs(SOFTWARE_SECONDS));
        let found = solve(
            puzzle,
            2,
            &Budget {
                deadline,
                ..Budget::default()
            },
        );
        let software_gave_up = found.gave_up;
        if !software_gave_up {
            differences.extend(against_software(puzzle, &verdict, &found));
        }
        InkRun {
            verdict,
            differences,
            simulated_cycles,
            bytes_sent: bytes.len() as u64,
            software_gave_up,
        }
    }
}

/// A whole v3 reply's bytes, as received.
fn whole_reply(bytes: &[u8]) -> Result<(Vec<u8>, usize), ReplyError> {
    v3::decode_reply(bytes).map(|(_, used)| (bytes[..used].to_vec(), used))
}

/// What differs between the core's reply and the model's, decoded.
fn reply_difference(got: &[u8], want: &[u8]) -> String {
    let at = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let decode = |b: &[u8]| v3::decode_reply(b).map(|(r, _)| r).unwrap_or_default();
    let (core, model) = (decode(got), decode(want));
    let mut what = Vec::new();
    let status = |r: &ColourReply| {
        let s = &r.status;
        format!(
            "outcome {} detail {} cycles {} passes {} nodes {} backtracks {}",
            s.outcome, s.detail, s.cycles, s.passes, s.nodes, s.backtracks
        )
    };
    if status(&core) != status(&model) {
        what.push(format!("core {}, model {}", status(&core), status(&model)));
    }
    for (name, a, b) in [
        ("cells", &core.cells, &model.cells),
        ("second", &core.second, &model.second),
    ] {
        let wrong: Vec<usize> = (0..a.len().max(b.len()))
            .filter(|&i| a.get(i) != b.get(i))
            .collect();
        if !wrong.is_empty() {
            what.push(format!(
                "{} of the {name} differ (first at {})",
                wrong.len(),
                wrong[0]
            ));
        }
    }
    format!(
        "the core's reply ({} bytes) is not the model's ({} bytes) from byte {at}: {}",
        got.len(),
        want.len(),
        what.join("; ")
    )
}

/// A decided colour set's colour.
fn colour_of(set: u8) -> u8 {
    set.trailing_zeros() as u8
}

/// The model's verdict against the software colour solver's.
fn against_software(puzzle: &ColourPuzzle, v: &ColourVerdict, found: &Found) -> Vec<String> {
    let mut out = Vec::new();
    let solution = |cells: &[u8], name: &str, out: &mut Vec<String>| -> Option<Vec<u8>> {
        if cells.iter().any(|c| c.count_ones() != 1) {
            out.push(format!("the model's {name} has undecided cells"));
            return None;
        }
        let grid: Vec<u8> = cells.iter().map(|&c| colour_of(c)).collect();
        if let Err(e) = puzzle.check_solution(&grid) {
            out.push(format!("the model's {name} breaks the clues: {e}"));
        }
        Some(grid)
    };
    if v.nodes == 0 && v.outcome != outcome::GAVE_UP {
        // Line logic alone decided: its fixpoint is the software's.
        let software = match found.line_logic {
            Some(LineOutcome::Solved) => outcome::SOLVED,
            Some(LineOutcome::Contradiction) => outcome::CONTRADICTION,
            Some(LineOutcome::Stalled) | None => outcome::STALLED,
        };
        // With a budget, a stall goes on to the search (nodes > 0).
        if v.outcome != software {
            out.push(format!(
                "line logic: the model says outcome {}, the software line solver {software}",
                v.outcome
            ));
        } else if software != outcome::CONTRADICTION {
            let cells: Vec<u8> = found.line_cells.iter().map(|&c| c as u8).collect();
            let wrong = cells.iter().zip(&v.cells).filter(|(a, b)| a != b).count();
            if wrong > 0 || cells.len() != v.cells.len() {
                out.push(format!(
                    "line logic: {wrong} cells' colours differ from the software line solver's"
                ));
            }
        }
        return out;
    }
    match (v.outcome, v.detail) {
        (outcome::GAVE_UP, _) => {}
        (outcome::SOLVED, FIRST_FOUND) => {
            solution(&v.cells, "first solution", &mut out);
            if found.count == 0 {
                out.push("the model found a solution; the software finds none".into());
            }
        }
        (outcome::SOLVED, _) => {
            let grid = solution(&v.cells, "solution", &mut out);
            if found.count != 1 {
                out.push(format!(
                    "the model says one solution, the software finds {}",
                    found.count
                ));
            } else if grid.is_some() && grid != found.first {
                out.push("the model's solution is not the software's".into());
            }
        }
        (outcome::SEVERAL, _) => {
            let first = solution(&v.cells, "first solution", &mut out);
            let second = solution(&v.second, "second solution", &mut out);
            if first.is_some() && first == second {
                out.push("the model's two solutions are the same".into());
            }
            if found.count < 2 {
                out.push(format!(
                    "the model says several solutions, the software finds {}",
                    found.count
                ));
            }
        }
        (outcome::CONTRADICTION, SEARCHED) if found.count > 0 => {
            out.push("the model's search says no solution; the software finds one".into());
        }
        (o, d) => out.push(format!(
            "the model searched and ended with outcome {o} detail {d}"
        )),
    }
    out
}

/// The `.non` text of a disagreement, the differences in comments.
pub fn failure_text(failure: &InkFailure) -> String {
    let mut s = String::from(
        "# nonohost sweep --inks: the colour engine's simulated core, its model and the software colour solver disagree\n",
    );
    for d in &failure.differences {
        s.push_str(&format!("# - {d}\n"));
    }
    s.push_str("# sent as colour clues (protocol v3); replay: nonohost send --sim FILE\n");
    let goal = failure.puzzle.goal.as_ref().map(|(g, _)| g.as_slice());
    match failure.puzzle.to_non(goal) {
        Ok(text) => s.push_str(&text),
        Err(e) => s.push_str(&format!("# (cannot write it as .non: {e})\n")),
    }
    s
}

impl Disagreement for InkFailure {
    fn file_name(&self, config: &Config, index: u64) -> String {
        let (h, w) = (self.puzzle.height(), self.puzzle.width());
        format!("sweep-colour-seed{}-{index}-{h}x{w}.non", config.seed)
    }
    fn text(&self) -> String {
        failure_text(self)
    }
    fn heading(&self) -> String {
        let p = &self.puzzle;
        format!(
            "{} ({}x{}, {} inks)",
            p.title.as_deref().unwrap_or(&p.name),
            p.height(),
            p.width(),
            p.colours.len() - 1
        )
    }
    fn differences(&self) -> &[String] {
        &self.differences
    }
    fn file(&mut self) -> &mut Option<PathBuf> {
        &mut self.file
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::random_colour_puzzle;

    /// The first of a seed's colour puzzles whose model verdict is `want`.
    fn puzzle_with(want: u8, budget: u16) -> (ColourPuzzle, ColourVerdict, Found) {
        (0..500)
            .map(|i| random_colour_puzzle(3, i, &(4..=7), 0.6, 3))
            .find_map(|p| {
                let mode = ColourMode { budget, first: false };
                let v = colour_model::solve(
                    &engine_clues(&p.rows),
                    &engine_clues(&p.columns),
                    p.colours.len(),
                    mode,
                );
                (v.outcome == want).then(|| {
                    let found = solve(&p, 2, &Budget::default());
                    (p, v, found)
                })
            })
            .expect("a puzzle with that outcome")
    }

    /// The checks hold the model to the software, and fail when the
    /// verdict is tampered with.
    #[test]
    fn a_tampered_verdict_is_a_disagreement() {
        for (want, budget) in [(outcome::SOLVED, 0), (outcome::STALLED, 0), (outcome::SEVERAL, 1)] {
            let (p, v, found) = puzzle_with(want, budget);
            assert_eq!(
                against_software(&p, &v, &found),
                Vec::<String>::new(),
                "outcome {want}"
            );
            // A cell's colours changed.
            let mut bad = v.clone();
            bad.cells[0] ^= 0b11;
            assert!(
                !against_software(&p, &bad, &found).is_empty(),
                "outcome {want}, a cell changed"
            );
            // Another outcome claimed.
            let mut bad = v.clone();
            bad.outcome = if want == outcome::SOLVED {
                outcome::STALLED
            } else {
                outcome::SOLVED
            };
            assert!(
                !against_software(&p, &bad, &found).is_empty(),
                "outcome {want} as {}",
                bad.outcome
            );
        }
    }

    /// A reply that differs from the model's is named by what differs.
    #[test]
    fn a_differing_reply_names_what_differs() {
        let (p, v, _) = puzzle_with(outcome::SOLVED, 0);
        let want = colour_reply(p.height(), p.width(), p.colours.len() - 1, &v);
        let mut other = v.clone();
        other.cycles += 1;
        let got = colour_reply(p.height(), p.width(), p.colours.len() - 1, &other);
        let text = reply_difference(&got, &want);
        assert!(text.contains("cycles"), "{text}");
    }
}
