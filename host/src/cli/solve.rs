//! `nonohost solve FILE...`: every puzzle of every file, black and white
//! or colour, in software; pictures and `.non` exports; a summary table
//! when there is more than one puzzle.

use super::{print_colour_report, print_report, FormatArg, SearchArgs};
use crate::colour::picture::{terminal_has_truecolour, write_files, Grid};
use crate::colour::report::{solve_colour, ColourReport};
use crate::puzzle::{load_any, AnyPuzzle, Format};
use crate::report::{exit, human_seconds, Report, Status};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Puzzle files (.non, webpbn .xml, Olšák .g, TPDNE codes, board.txt,
    /// or a picture); `-` reads standard input. With more than one puzzle,
    /// a summary table follows.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Read the files in this format instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No progress spinner.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object instead of the picture (one line per puzzle).
    #[arg(long)]
    pub json: bool,
    /// Write the solution (both, side by side, when there are several) as
    /// a PNG picture. With several puzzles, `out.png` becomes `out-1.png`, ….
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Write the solution (both when there are several) as an SVG picture.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the puzzle with its solution as its goal, as a `.non` file
    /// (colour puzzles with `color` lines), which reads back.
    #[arg(long, value_name = "FILE.non")]
    pub output: Option<PathBuf>,
    /// Draw colour puzzles in their colours' characters, not in 24-bit
    /// colour (also when NO_COLOR is set or stdout is not a terminal).
    #[arg(long)]
    pub no_color: bool,
    /// Draw the solution without its clues (on a terminal, guide lines
    /// part every 5 cells either way).
    #[arg(long)]
    pub no_clues: bool,
}

/// One line of the summary table.
pub(super) struct Row {
    name: String,
    size: String,
    outcome: String,
    /// Who decided it: board, host, or board+host.
    by: String,
    seconds: f64,
    goal: String,
}

pub fn run(a: &SolveArgs) -> i32 {
    let format = a.format.map(Format::from);
    let progress = !a.quiet && !a.json && std::io::stderr().is_terminal();
    let options = a.search.options(progress);
    let truecolour = !a.no_color && terminal_has_truecolour();
    let mut worst = exit::SOLVED;
    let mut rows = Vec::new();
    let mut count = 0;
    for path in &a.files {
        let file = path.display().to_string();
        let puzzles = match load_any(path, format) {
            Ok((puzzles, _)) => puzzles,
            Err(e) => {
                worst = worst.max(print_report(&Report::error(&file, &e), a.json, true));
                rows.push(Row {
                    name: file,
                    size: String::new(),
                    outcome: "error".into(),
                    by: String::new(),
                    seconds: 0.0,
                    goal: String::new(),
                });
                continue;
            }
        };
        for puzzle in &puzzles {
            count += 1;
            let start = Instant::now();
            let mut solved = match puzzle {
                AnyPuzzle::Mono(p) => Solved::Mono(crate::software::solve_in_software(p, &options)),
                AnyPuzzle::Colour(p) => Solved::Colour(solve_colour(p, &options)),
            };
            // The pictures and the .non export are written before the report
            // is printed, so that `--json`'s object carries a failure to
            // write them in its `error` (the exit code is at least 1 then).
            let written = write_outputs(a, &solved, count, a.files.len() > 1 || puzzles.len() > 1);
            if let (Err(e), true) = (&written, a.json) {
                solved.set_error(e);
            }
            let code = match &solved {
                Solved::Mono(report) => print_report(report, a.json, !a.no_clues),
                Solved::Colour(report) => print_colour_report(report, a.json, truecolour),
            };
            worst = worst.max(code);
            rows.push(solved.row(start.elapsed().as_secs_f64()));
            if let Err(e) = written {
                eprintln!("error: {e}");
                worst = worst.max(exit::ERROR);
            }
        }
    }
    if rows.len() > 1 && !a.json {
        print!("{}", table(&rows));
    }
    worst
}

/// A solved puzzle of either kind.
pub(super) enum Solved {
    Mono(Report),
    Colour(ColourReport),
}

impl Solved {
    /// Records a failure that is not the puzzle's (a picture or `.non`
    /// export that could not be written) in the report's `error`.
    fn set_error(&mut self, error: &str) {
        let slot = match self {
            Solved::Mono(r) => &mut r.error,
            Solved::Colour(r) => &mut r.error,
        };
        *slot = Some(match slot.take() {
            Some(old) => format!("{old}; {error}"),
            None => error.to_string(),
        });
    }

    pub(super) fn row(&self, seconds: f64) -> Row {
        let (name, title, w, h, status, unique, goal, by) = match self {
            Solved::Mono(r) => (
                &r.file,
                &r.title,
                r.width,
                r.height,
                r.status,
                r.uniqueness_checked,
                &r.goal,
                &r.solved_by,
            ),
            Solved::Colour(r) => (
                &r.file,
                &r.title,
                r.width,
                r.height,
                r.status,
                r.uniqueness_checked,
                &r.goal,
                &r.solved_by,
            ),
        };
        let outcome = match status {
            Status::Solved if unique == Some(false) => "solved (first found)",
            Status::Solved => "solved, unique",
            Status::SeveralSolutions => "several solutions",
            Status::NoSolution => "no solution",
            Status::GaveUp => "gave up",
            Status::Stalled => "stalled",
            Status::OverCapacity => "over capacity",
            Status::Malformed => "malformed",
            Status::Error => "error",
        };
        Row {
            name: match title {
                Some(t) => format!("{name} \"{t}\""),
                None => name.clone(),
            },
            size: format!("{w}x{h}"),
            outcome: outcome.into(),
            by: by.clone().unwrap_or_default(),
            seconds,
            goal: goal.clone().unwrap_or_default(),
        }
    }

    /// The answer (and a second solution) as grids to draw; none without one.
    fn grids(&self) -> Vec<Grid> {
        match self {
            Solved::Mono(r) if !r.cells.is_empty() && r.status != Status::NoSolution => {
                let mut grids = vec![Grid::mono(r.width, r.height, &r.cells)];
                if let Some(other) = &r.other {
                    let cells: Vec<Option<bool>> = other.iter().map(|&c| Some(c)).collect();
                    grids.push(Grid::mono(r.width, r.height, &cells));
                }
                grids
            }
            Solved::Colour(r) if r.status != Status::NoSolution => r.grids(),
            _ => Vec::new(),
        }
    }

    /// The puzzle as `.non`, with the answer as its goal when every cell is decided.
    fn to_non(&self) -> Result<String, String> {
        match self {
            Solved::Mono(r) => {
                let p = r.puzzle.as_ref().ok_or("no puzzle")?;
                let mut s = p.to_non();
                if let Some(cells) = r.cells.iter().copied().collect::<Option<Vec<bool>>>() {
                    let goal: String = cells.iter().map(|&c| if c { '1' } else { '0' }).collect();
                    s.push_str(&format!("\ngoal \"{goal}\"\n"));
                }
                Ok(s)
            }
            Solved::Colour(r) => {
                let answer: Option<Vec<u8>> = r
                    .cells
                    .iter()
                    .map(|c| (c.count_ones() == 1).then(|| c.trailing_zeros() as u8))
                    .collect();
                r.puzzle.to_non(answer.as_deref())
            }
        }
    }
}

/// `--png`, `--svg` and `--output` for puzzle number `n`.
fn write_outputs(a: &SolveArgs, solved: &Solved, n: usize, many: bool) -> Result<(), String> {
    let numbered = |path: &Option<PathBuf>| {
        path.as_ref()
            .map(|p| if many { numbered_path(p, n) } else { p.clone() })
    };
    let (png, svg, output) = (numbered(&a.png), numbered(&a.svg), numbered(&a.output));
    if png.is_some() || svg.is_some() {
        let grids = solved.grids();
        if !grids.is_empty() {
            write_files(png.as_deref(), svg.as_deref(), &grids)?;
        }
    }
    if let Some(path) = output {
        let text = solved.to_non()?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// `out.png` as `out-3.png`, for the third puzzle.
fn numbered_path(path: &Path, n: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

/// The summary of a batch: one line per puzzle, then the totals.
pub(super) fn table(rows: &[Row]) -> String {
    let name_width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = format!(
        "\n{:<name_width$}  {:>9}  {:<20}  {:<10}  {:>10}  goal\n",
        "puzzle", "size", "outcome", "by", "time"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<name_width$}  {:>9}  {:<20}  {:<10}  {:>10}  {}\n",
            r.name,
            r.size,
            r.outcome,
            r.by,
            human_seconds(r.seconds),
            r.goal
        ));
    }
    let solved = rows.iter().filter(|r| r.outcome.starts_with("solved")).count();
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    s.push_str(&format!(
        "{} puzzles: {solved} solved, {} other, {} in all\n",
        rows.len(),
        rows.len() - solved,
        human_seconds(total)
    ));
    s
}
