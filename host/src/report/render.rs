//! Pictures of a board in the terminal: the grid with its clues, or, when
//! that does not fit, half blocks; and the figures in words.

use crate::puzzle::{clue_text, Puzzle};

/// Cells as one string per row.
pub(super) fn rows_text(cells: &[Option<bool>], width: usize) -> Vec<String> {
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

/// How a grid is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// The row clues on the left and the column clues on top.
    pub clues: bool,
    /// Guide lines every 5 cells, as printed puzzles have (`|` between
    /// column groups, a rule between row groups): on a terminal only, so
    /// that pipes and files keep one character a cell.
    pub guides: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            clues: true,
            guides: false,
        }
    }
}

/// The grid with row clues on the left and column clues stacked on top;
/// `mark` may show a cell (by row-major index) as another character.
pub fn render(puzzle: &Puzzle, cells: &[Option<bool>], mark: impl Fn(usize) -> Option<char>) -> String {
    render_styled(puzzle, cells, mark, Style::default())
}

/// [`render`], with or without the clues and the guide lines.
pub fn render_styled(
    puzzle: &Puzzle,
    cells: &[Option<bool>],
    mark: impl Fn(usize) -> Option<char>,
    style: Style,
) -> String {
    let (w, h) = (puzzle.width(), puzzle.height());
    let cw = if style.clues {
        puzzle
            .columns
            .iter()
            .flatten()
            .map(|n| n.to_string().len())
            .max()
            .unwrap_or(1)
            .max(1)
    } else {
        1
    };
    let row_text: Vec<String> = puzzle.rows.iter().map(|c| clue_text(c, " ")).collect();
    let rw = row_text.iter().map(|t| t.len()).max().unwrap_or(1);
    let depth = if style.clues {
        puzzle.columns.iter().map(|c| c.len().max(1)).max().unwrap_or(1)
    } else {
        0
    };
    // What goes before column c: a space, or a guide; nothing before the
    // first column when there are no row clues to part it from.
    let guide_before = |c: usize| style.guides && c > 0 && c.is_multiple_of(5);
    let separator = |c: usize| match (guide_before(c), c == 0 && !style.clues) {
        (_, true) => "",
        (true, _) => "|",
        _ => " ",
    };
    let margin = if style.clues {
        " ".repeat(rw + 1)
    } else {
        String::new()
    };
    let mut s = String::new();
    for level in 0..depth {
        s.push_str(&margin);
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
        if style.guides && r > 0 && r.is_multiple_of(5) {
            s.push_str(&margin);
            for c in 0..w {
                let cross = if guide_before(c) { "+" } else { "-" };
                s.push_str(if separator(c).is_empty() { "" } else { cross });
                s.push_str(&"-".repeat(cw));
            }
            s.push('\n');
        }
        if style.clues {
            s.push_str(&format!("{:>rw$} ", row_text[r]));
        }
        for c in 0..w {
            let ch = cells.get(r * w + c).copied().flatten();
            let ch = mark(r * w + c).unwrap_or(cell_char(ch));
            s.push_str(&format!("{}{ch:>cw$}", separator(c)));
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
pub(super) fn render_to_fit(
    puzzle: &Puzzle,
    cells: &[Option<bool>],
    mark: impl Fn(usize) -> Option<char>,
    clues: bool,
) -> String {
    let columns = terminal_columns();
    let style = Style {
        clues,
        guides: columns.is_some(),
    };
    let full = render_styled(puzzle, cells, mark, style);
    let Some(columns) = columns else {
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
    let without = if clues { ", without the clues," } else { "" };
    half_blocks(cells, w, h)
        + &format!("(half blocks, two rows a character{without} to fit {columns} columns; ░ undecided)\n")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use crate::software::{solve_in_software, SearchOptions};

    #[test]
    fn half_blocks_draw_two_rows_a_character() {
        let cells = [Some(true), Some(false), None, Some(true), Some(true), Some(false)];
        // 2 columns x 3 rows: rows (#.) (?#) (#.).
        assert_eq!(half_blocks(&cells, 2, 3), "░▄\n▀ \n");
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
        let bare = Style {
            clues: false,
            guides: false,
        };
        assert_eq!(
            render_styled(&p, &r.cells, |_| None, bare),
            ". # # .\n# . . #\n. # # #\n. . . #\n"
        );
    }

    #[test]
    fn guide_lines_part_every_five_cells() {
        // 7 columns x 6 rows, every cell filled.
        let p = Puzzle::from_clues("t", vec![vec![7]; 6], vec![vec![6]; 7]);
        let cells = vec![Some(true); 42];
        let guides = Style {
            clues: true,
            guides: true,
        };
        let text = render_styled(&p, &cells, |_| None, guides);
        let expected = [
            "   6 6 6 6 6 6 6",
            "7  # # # # #|# #",
            "7  # # # # #|# #",
            "7  # # # # #|# #",
            "7  # # # # #|# #",
            "7  # # # # #|# #",
            "  ----------+---",
            "7  # # # # #|# #",
        ]
        .map(|l| format!("{l}\n"))
        .concat();
        assert_eq!(text, expected, "\n{text}");
        let bare = Style {
            clues: false,
            guides: true,
        };
        let text = render_styled(&p, &cells, |_| None, bare);
        assert_eq!(text.lines().nth(5), Some("---------+---"), "\n{text}");
        assert_eq!(text.lines().next(), Some("# # # # #|# #"), "\n{text}");
    }
}
