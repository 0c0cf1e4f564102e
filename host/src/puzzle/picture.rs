//! A picture of `#` (filled) and `.` (empty), from which the clues are derived.

use super::{Errors, ParseError, Puzzle, MAX_HOST_LINE};

/// A picture: one line per row, `#`, `X`, `x`, `1`, `*` filled, `.`, `-`,
/// `0`, `_` empty; spaces and tabs between cells are ignored; blank lines
/// before and after the picture are ignored.
pub fn parse(file: &str, text: &str) -> Result<Puzzle, ParseError> {
    let e = Errors { file };
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let Some(first) = first else {
        return Err(e.at(0, "the file is empty"));
    };
    let last = lines.iter().rposition(|l| !l.trim().is_empty()).unwrap_or(first);
    let mut cells = Vec::new();
    let mut width = None;
    for (j, line) in lines.iter().enumerate().take(last + 1).skip(first) {
        let n = j + 1;
        if line.trim().is_empty() {
            return Err(e.at(n, "blank line inside the picture"));
        }
        let mut count = 0;
        for ch in line.chars() {
            match ch {
                '#' | 'X' | 'x' | '1' | '*' => cells.push(true),
                '.' | '-' | '0' | '_' => cells.push(false),
                c if c.is_whitespace() => continue,
                c => {
                    return Err(e.at(
                        n,
                        format!(
                            "'{}' is not a picture cell (use # for filled, . for empty); \
                             not a .non file (no width/height) nor a board.txt (no rows:/columns: header) either",
                            c.escape_default()
                        ),
                    ))
                }
            }
            count += 1;
            if count > MAX_HOST_LINE {
                return Err(e.at(n, format!("the row is longer than {MAX_HOST_LINE} cells")));
            }
        }
        match width {
            None => width = Some(count),
            Some(w) if w != count => {
                return Err(e.at(n, format!("this row has {count} cells, the first row has {w}")));
            }
            _ => {}
        }
    }
    let width = width.unwrap_or(0);
    let height = last + 1 - first;
    if height > MAX_HOST_LINE {
        return Err(e.at(
            0,
            format!("the picture has {height} rows; at most {MAX_HOST_LINE}"),
        ));
    }
    let mut p = Puzzle::from_picture(file, height, width, &cells);
    p.lines = (first + 1..=last + 1)
        .chain(std::iter::repeat_n(0, width))
        .collect();
    Ok(p)
}
