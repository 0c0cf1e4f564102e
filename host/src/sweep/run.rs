//! One puzzle through a simulated core and through that engine's reference
//! model, and everything that differs between the two.
//!
//! The clue engine's answer is also held against the other line solvers:
//! the DNF engine's model when the puzzle fits the DNF engine, and always
//! the software line solver (`crate::solver`). All three are complete line
//! solvers, so their fixpoints, and the outcome, must be the same.

use crate::puzzle::Puzzle;
use crate::solver::{self, LineOutcome};
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::{clue_model, clue_protocol};
use nonogram_hdl::colour::{colour_protocol, model as colour_model};
use nonogram_hdl::dnf::model;
use nonogram_hdl::dnf::options::LineOptions;
use nonogram_hdl::link::protocol;
use nonogram_hdl::link::protocol::status::outcome;
use nonogram_hdl::link::protocol::{encode_board, Reply, ReplyError};
use nonogram_sim::{Backend, SimCore};

/// Clocks per UART bit of the simulated cores (the fewest their receivers take).
pub const CLOCKS_PER_BIT: u32 = 4;

/// What an engine's model says its core must answer, with the model's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    pub rows: usize,
    pub columns: usize,
    pub outcome: u8,
    pub detail: u8,
    /// Row-major, `None` where unknown.
    pub cells: Vec<Option<bool>>,
    /// The engine's clock cycles.
    pub cycles: u64,
    pub passes: u8,
    /// Options stored (the DNF engine; 0 for the clue engine).
    pub options: usize,
    /// Options read by the DNF engine (0 for the clue engine).
    pub options_read: u64,
    pub visits: u64,
    /// The clue engine's search: guesses, backtracks, and for SEVERAL the
    /// cells in which a second solution differs.
    pub nodes: u64,
    pub backtracks: u64,
    pub differs: Vec<bool>,
    /// Cells the probing engine probed (0 for the others).
    pub probes: u64,
}

impl From<model::Verdict> for Expected {
    fn from(v: model::Verdict) -> Expected {
        Expected {
            rows: v.rows,
            columns: v.columns,
            outcome: v.outcome,
            detail: v.detail,
            cells: v.cells,
            cycles: v.cycles,
            passes: v.passes,
            options: v.options,
            options_read: v.options_read,
            visits: v.visits,
            nodes: 0,
            backtracks: 0,
            differs: Vec::new(),
            probes: 0,
        }
    }
}

impl Expected {
    /// The colour engine's verdict on a one-ink board, as black and white:
    /// background is empty, ink 1 filled, both unknown; for SEVERAL the
    /// cells where the second solution differs.
    fn of_one_ink(rows: usize, columns: usize, v: colour_model::ColourVerdict) -> Expected {
        let cell = |c: u8| match c {
            0b01 => Some(false),
            0b10 => Some(true),
            _ => None,
        };
        Expected {
            rows,
            columns,
            outcome: v.outcome,
            detail: v.detail,
            differs: v.second.iter().zip(&v.cells).map(|(a, b)| a != b).collect(),
            cells: v.cells.into_iter().map(cell).collect(),
            cycles: v.cycles,
            passes: v.passes,
            options: 0,
            options_read: 0,
            visits: v.visits,
            nodes: v.nodes,
            backtracks: v.backtracks,
            probes: 0,
        }
    }
}

impl From<clue_model::ClueVerdict> for Expected {
    fn from(v: clue_model::ClueVerdict) -> Expected {
        Expected {
            rows: v.rows,
            columns: v.columns,
            outcome: v.outcome,
            detail: v.detail,
            cells: v.cells,
            cycles: v.cycles,
            passes: v.passes,
            options: 0,
            options_read: 0,
            visits: v.visits,
            nodes: v.nodes,
            backtracks: v.backtracks,
            differs: v.differs,
            probes: v.probes,
        }
    }
}

/// One puzzle's run through a core and its model.
#[derive(Clone, Debug)]
pub struct Run {
    pub expected: Expected,
    /// What differs: core against model, and (clue engine) engine against
    /// the other line solvers. Empty when all agree.
    pub differences: Vec<String>,
    /// The clue engine's answer was compared with the DNF engine's model.
    pub compared_with_dnf: bool,
    pub simulated_cycles: u64,
    pub bytes_sent: u64,
    /// The core's reply, if it sent one.
    pub reply: Option<Reply>,
}

/// A simulated core with either engine, clocked cycle by cycle on either
/// back end.
pub struct Core {
    engine: Engine,
    backend: Backend,
    core: Box<dyn SimCore>,
    /// The clue engine's search budget (units of 2^20 cycles; 0: none).
    pub(super) budget: u16,
    /// First-solution mode (the tournaments' task).
    pub(super) first: bool,
}

impl Core {
    /// A core of `engine` on `backend` (Verilator's is built first unless cached).
    pub fn new(engine: Engine, backend: Backend) -> std::io::Result<Core> {
        Ok(Core {
            engine,
            backend,
            core: make_core(engine, backend)?,
            budget: 0,
            first: false,
        })
    }

    /// The same core, its searches stopping at the first solution.
    pub fn with_first(self, first: bool) -> Core {
        Core { first, ..self }
    }

    /// The same core, searching with `budget` (units of 2^20 cycles) on
    /// clue-engine puzzles.
    pub fn with_budget(self, budget: u16) -> Core {
        Core { budget, ..self }
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Runs a puzzle that fits the engine. `every_cell` (the original host's
    /// encoding) applies to the DNF engine only.
    pub fn run(&mut self, puzzle: &Puzzle, every_cell: bool) -> Run {
        match self.engine {
            Engine::Dnf => self.run_dnf(puzzle, every_cell),
            Engine::Clues | Engine::Probing => self.run_clues(puzzle),
            Engine::Colour => self.run_colour(puzzle),
        }
    }
}

fn make_core(engine: Engine, backend: Backend) -> std::io::Result<Box<dyn SimCore>> {
    match backend {
        Backend::RustHdl => Ok(nonogram_sim::rusthdl_core(engine, 0.0)),
        Backend::Verilator => nonogram_sim::verilator_core(engine, 0.0),
    }
}

/// The option lists of every line (rows, then columns).
fn lines_of(puzzle: &Puzzle) -> Vec<Vec<u64>> {
    puzzle
        .lines()
        .map(|(clue, length)| LineOptions::new(clue, length).collect())
        .collect()
}

/// Cycles to wait for a reply: twice the wire time both ways and twice the
/// engine's cycles, and a margin.
pub(super) fn budget(clocks_per_bit: u32, bytes_out: usize, bytes_back: usize, engine_cycles: u64) -> u64 {
    2 * 10 * clocks_per_bit as u64 * (bytes_out + bytes_back) as u64 + 2 * engine_cycles + 100_000
}

impl Core {
    fn run_dnf(&mut self, puzzle: &Puzzle, every_cell: bool) -> Run {
        let (rows, columns) = (puzzle.height(), puzzle.width());
        let lines = lines_of(puzzle);
        let expected = Expected::from(model::solve(rows, columns, &lines));
        let mut bytes = Vec::new();
        encode_board(
            rows,
            columns,
            lines.iter().map(|l| l.iter().copied()),
            every_cell,
            &mut bytes,
        );
        // Reply: the size pair, every cell, a dozen STATUS messages, END_BOARD.
        let back = 2 * (2 + rows * columns + 16 + 1);
        let wait = budget(CLOCKS_PER_BIT, bytes.len(), back, expected.cycles);
        let (reply, problems, simulated_cycles) = self.exchange(&bytes, wait, protocol::decode_reply);
        let mut differences = reply.as_ref().map_or_else(Vec::new, |r| compare(r, &expected));
        differences.extend(problems);
        Run {
            expected,
            differences,
            compared_with_dnf: false,
            simulated_cycles,
            bytes_sent: bytes.len() as u64,
            reply,
        }
    }

    fn run_clues(&mut self, puzzle: &Puzzle) -> Run {
        let (rows, columns) = (puzzle.height(), puzzle.width());
        let mode = clue_model::Mode {
            budget: self.budget,
            first: self.first,
            probe: self.engine == Engine::Probing,
        };
        let expected = Expected::from(clue_model::run(&puzzle.rows, &puzzle.columns, mode));
        let bytes = crate::wire::encode_clues(puzzle, self.budget, self.first);
        // Reply: the size pair, at most three maps (13 cells a message),
        // STATUS fields, END_BOARD.
        let back = 2 * (2 + 3 * (rows * columns).div_ceil(13) + 24 + 1);
        let wait = budget(CLOCKS_PER_BIT, bytes.len(), back, expected.cycles);
        let (reply, problems, simulated_cycles) = self.exchange(&bytes, wait, clue_protocol::decode_reply);
        let mut differences = reply.as_ref().map_or_else(Vec::new, |r| compare(r, &expected));
        differences.extend(problems);
        // Line logic alone decided it (no branch, and no probe: probes fix
        // cells and find contradictions without branching): the line
        // solvers must agree; else the search does.
        let line_logic_alone = expected.nodes == 0 && expected.probes == 0;
        let (against_others, compared_with_dnf) = if line_logic_alone {
            compare_line_solvers(puzzle, &expected)
        } else {
            (compare_search(puzzle, &expected), false)
        };
        differences.extend(against_others);
        Run {
            expected,
            differences,
            compared_with_dnf,
            simulated_cycles,
            bytes_sent: bytes.len() as u64,
            reply,
        }
    }

    /// The colour engine on a black-and-white puzzle, a board of one ink
    /// (protocol v3): its reply against the colour model's, and against
    /// the line solvers or the software search as the clue engine's.
    fn run_colour(&mut self, puzzle: &Puzzle) -> Run {
        let (rows, columns) = (puzzle.height(), puzzle.width());
        let (row_clues, column_clues) = crate::wire::one_ink(puzzle);
        let mode = colour_model::ColourMode {
            budget: self.budget,
            first: self.first,
        };
        let verdict = colour_model::solve(&row_clues, &column_clues, 2, mode);
        let expected = Expected::of_one_ink(rows, columns, verdict);
        let bytes = crate::wire::encode_colour_clues(puzzle, self.budget, self.first);
        // Reply: the size pair and COLOURS, two POSSIBLE maps or the
        // VALUES and SECOND (4 cells a message), STATUS fields, END_BOARD.
        let back = 2 * (3 + 2 * (rows * columns).div_ceil(4) + 24 + 1);
        let wait = budget(CLOCKS_PER_BIT, bytes.len(), back, expected.cycles);
        let (reply, problems, simulated_cycles) = self.exchange(&bytes, wait, decode_one_ink);
        let mut differences = reply.as_ref().map_or_else(Vec::new, |r| compare(r, &expected));
        differences.extend(problems);
        let (against_others, compared_with_dnf) = if expected.nodes == 0 {
            compare_line_solvers(puzzle, &expected)
        } else {
            (compare_search(puzzle, &expected), false)
        };
        differences.extend(against_others);
        Run {
            expected,
            differences,
            compared_with_dnf,
            simulated_cycles,
            bytes_sent: bytes.len() as u64,
            reply,
        }
    }

    /// Sends `bytes` and waits up to `budget` cycles for a whole reply.
    /// Returns the decoded reply, what went wrong on the wire, and the cycles
    /// simulated. A core that misbehaved is replaced by a fresh one, so the
    /// next puzzle starts clean.
    pub(super) fn exchange<R>(
        &mut self,
        bytes: &[u8],
        budget: u64,
        decode: fn(&[u8]) -> Result<(R, usize), ReplyError>,
    ) -> (Option<R>, Vec<String>, u64) {
        let (cycles_before, framing_before) = (self.core.cycles(), self.core.framing_errors());
        let mut problems = Vec::new();
        let answer = self
            .core
            .send(bytes)
            .and_then(|()| run_until_reply(self.core.as_mut(), budget));
        let simulated = self.core.cycles() - cycles_before;
        let mut reply = None;
        let mut stray = self.core.take_received().len();
        match answer {
            Err(e) => problems.push(format!("the simulated core failed: {e}")),
            Ok(None) => problems.push(format!("the core sent no complete reply within {budget} cycles")),
            Ok(Some(raw)) => match decode(&raw) {
                Err(e) => problems.push(format!("garbled reply: {e}")),
                Ok((r, used)) => {
                    reply = Some(r);
                    stray += raw.len() - used;
                }
            },
        }
        if stray > 0 {
            problems.push(format!("{stray} stray bytes after the reply"));
        }
        if self.core.framing_errors() != framing_before {
            problems.push("framing errors on the core's tx pin".into());
        }
        if !problems.is_empty() {
            match make_core(self.engine, self.backend) {
                Ok(core) => self.core = core,
                Err(e) => problems.push(format!("cannot start a fresh core: {e}")),
            }
        }
        (reply, problems, simulated)
    }
}

/// A v3 reply to a board of one ink, read as black and white.
fn decode_one_ink(bytes: &[u8]) -> Result<(Reply, usize), ReplyError> {
    colour_protocol::decode_reply(bytes).map(|(reply, used)| (reply.black_and_white(), used))
}

/// Runs until the core has sent a complete reply (up to END_BOARD), or has
/// gone quiet without one, or `budget` cycles pass. Returns every byte
/// received, when they begin with a complete reply.
fn run_until_reply(core: &mut dyn SimCore, budget: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    let mut spent = 0;
    while spent < budget {
        let ran = core.run_until_quiet(core.batch().min(budget - spent))?;
        spent += ran;
        bytes.extend(core.take_received());
        if clue_protocol::decode_any_reply(&bytes).is_ok() {
            return Ok(Some(bytes));
        }
        if ran == 0 {
            // Quiet: nothing more is coming.
            break;
        }
    }
    Ok(None)
}

fn show(c: Option<bool>) -> char {
    match c {
        Some(true) => '#',
        Some(false) => '.',
        None => '?',
    }
}

/// The cells that differ between `a` and `b` (named `a_name`, `b_name`),
/// the first eight of them listed.
fn cell_differences(
    columns: usize,
    a_name: &str,
    a: &[Option<bool>],
    b_name: &str,
    b: &[Option<bool>],
) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!(
            "cells: {a_name} has {}, {b_name} has {}",
            a.len(),
            b.len()
        ));
    }
    let columns = columns.max(1);
    let wrong: Vec<String> = (0..a.len())
        .filter(|&i| a[i] != b[i])
        .map(|i| {
            format!(
                "({}, {}) {a_name} {} {b_name} {}",
                i / columns,
                i % columns,
                show(a[i]),
                show(b[i])
            )
        })
        .collect();
    if wrong.is_empty() {
        return None;
    }
    let more = if wrong.len() > 8 {
        format!(" and {} more", wrong.len() - 8)
    } else {
        String::new()
    };
    Some(format!(
        "{} cells differ (row, column): {}{more}",
        wrong.len(),
        wrong[..wrong.len().min(8)].join(", ")
    ))
}

/// What differs between a core's reply and its model.
pub fn compare(reply: &Reply, expected: &Expected) -> Vec<String> {
    let mut d = Vec::new();
    let mut field = |name: &str, core: u64, model: u64| {
        if core != model {
            d.push(format!("{name}: core {core}, model {model}"));
        }
    };
    field("rows", reply.rows as u64, expected.rows as u64);
    field("columns", reply.columns as u64, expected.columns as u64);
    field("outcome", reply.outcome as u64, expected.outcome as u64);
    field("detail", reply.detail as u64, expected.detail as u64);
    field("solver cycles", reply.cycles as u64, expected.cycles);
    field("passes", reply.passes as u64, expected.passes as u64);
    field("options stored", reply.options as u64, expected.options as u64);
    field("search nodes", reply.nodes as u64, expected.nodes);
    field("backtracks", reply.backtracks as u64, expected.backtracks);
    if reply.differs != expected.differs {
        d.push("DIFFERS map: core and model differ".into());
    }
    d.extend(cell_differences(
        expected.columns,
        "core",
        &reply.cells,
        "model",
        &expected.cells,
    ));
    d
}

/// The clue engine's model against the DNF engine's model (when the puzzle
/// fits the DNF engine) and against the software line solver: all three are
/// complete line solvers, so the outcome must agree, and the cells unless
/// there is no fill (which line is found empty first depends on the order
/// of the visits). The clue engine visits only dirty lines, so it never
/// makes more visits than the DNF engine, which visits every line. Returns
/// the differences and whether the DNF model was consulted.
/// The clue engine's search (model) against the software solver: the same
/// number of solutions (0, 1, or 2 for "several"), and every solution the
/// engine names satisfies the clues. A search that gave up (either) decides
/// nothing.
pub fn compare_search(puzzle: &Puzzle, clues: &Expected) -> Vec<String> {
    let mut d = Vec::new();
    let count = match clues.outcome {
        outcome::SOLVED => 1,
        outcome::SEVERAL => 2,
        outcome::CONTRADICTION => 0,
        _ => return d,
    };
    // A first solution proves itself (checked against the clues below);
    // whether it is the only one was not asked.
    let first_found = clues.outcome == outcome::SOLVED && clues.detail == clue_model::FIRST_FOUND;
    if !first_found {
        // (A software search that takes over 20 s decides nothing here.)
        let mut software = solver::Solver::new();
        software.set_budget(solver::Budget {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
            ..Default::default()
        });
        let found = software.count_solutions(&puzzle.rows, &puzzle.columns, 2);
        if !found.gave_up && found.count.min(2) != count {
            d.push(format!(
                "software search: {} solutions, the clue engine's search says {count}",
                found.count.min(2)
            ));
        }
    }
    let first: Vec<bool> = clues.cells.iter().map(|c| *c == Some(true)).collect();
    let mut answers = vec![];
    if count > 0 {
        answers.push(first.clone());
    }
    if count == 2 {
        let second: Vec<bool> = first.iter().zip(&clues.differs).map(|(a, d)| a ^ d).collect();
        if second == first {
            d.push("SEVERAL with an empty DIFFERS map".into());
        }
        answers.push(second);
    }
    for answer in answers {
        if let Err(e) = puzzle.check_solution(&answer) {
            d.push(format!("the clue engine's solution breaks the clues: {e}"));
        }
    }
    d
}

pub fn compare_line_solvers(puzzle: &Puzzle, clues: &Expected) -> (Vec<String>, bool) {
    let mut d = Vec::new();
    let fits_dnf = crate::wire::check_capacity(puzzle).is_ok();
    if fits_dnf {
        let dnf = model::solve_clues(&puzzle.rows, &puzzle.columns);
        if clues.outcome != dnf.outcome {
            d.push(format!(
                "engines: outcome: clue engine {}, DNF engine {}",
                clues.outcome, dnf.outcome
            ));
        } else if dnf.outcome != outcome::CONTRADICTION {
            if clues.visits > dnf.visits {
                d.push(format!(
                    "engines: visits: clue engine {}, more than the DNF engine's {}",
                    clues.visits, dnf.visits
                ));
            }
            d.extend(
                cell_differences(
                    clues.columns,
                    "clue engine",
                    &clues.cells,
                    "DNF engine",
                    &dnf.cells,
                )
                .map(|s| format!("engines: {s}")),
            );
        }
    }
    let software = solver::line_solve(&puzzle.rows, &puzzle.columns);
    let software_outcome = match software.outcome {
        LineOutcome::Solved => outcome::SOLVED,
        LineOutcome::Stalled => outcome::STALLED,
        LineOutcome::Contradiction => outcome::CONTRADICTION,
    };
    if clues.outcome != software_outcome {
        d.push(format!(
            "software line solver: outcome: clue engine {}, software {software_outcome}",
            clues.outcome
        ));
    } else if software.outcome != LineOutcome::Contradiction {
        d.extend(
            cell_differences(
                clues.columns,
                "clue engine",
                &clues.cells,
                "software",
                &software.cells,
            )
            .map(|s| format!("software line solver: {s}")),
        );
    }
    (d, fits_dnf)
}
