//! The host's software search as `solve` runs it ([`solve_in_software`]) and
//! as `send` finishes a stalled board: bounded by a time and Ctrl-C, with a
//! spinner, and reported as a [`Report`].

use crate::puzzle::Puzzle;
use crate::report::{plural, Report, Status};
use crate::solver::{Budget, LineOutcome, Solutions, Solver};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
        let bar = crate::progress::spinner(true, "{spinner} searching{msg}, {elapsed}");
        bar.set_message("");
        bar
    });
    let budget = Budget {
        deadline: options.max_time.map(|t| start + t),
        stop: options.interrupt.clone(),
        progress: spinner.clone().map(|bar| {
            Arc::new(move |nodes: u64| bar.set_message(format!(": {nodes} nodes")))
                as Arc<dyn Fn(u64) + Send + Sync>
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
pub(crate) fn finish_by_search(
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
    let mut nodes = plural(found.nodes, "node", "nodes");
    if found.by_sat {
        nodes += ", then the SAT solver";
    }
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

/// `solve`: line logic, then search when it stalls.
pub fn solve_in_software(puzzle: &Puzzle, options: &SearchOptions) -> Report {
    let mut report = Report::new(puzzle, Status::Error);
    let mut solver = Solver::new();
    // Line logic on a big puzzle takes seconds (25 s on a dense 1024x1024)
    // and reports nothing on the way: a spinner that ticks by itself says
    // the host is at work.
    let spinner = crate::progress::spinner(options.progress, "{spinner} line logic, {elapsed}");
    let lines = solver.line_solve(&puzzle.rows, &puzzle.columns);
    spinner.finish_and_clear();
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
