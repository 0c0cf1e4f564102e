//! Puzzles and the three file formats `nonohost` reads.
//!
//! * Steve Simpson's `.non` format (`width`, `height`, `rows`, `columns`, …);
//! * the project's own `board.txt` (a `rows` and a `columns` section);
//! * a picture (`#` filled, `.` empty), from which the clues are derived.
//!
//! [`Puzzle::load`] and [`Puzzle::parse`] pick the format by extension and
//! content; every malformed file gives a [`ParseError`] naming the file, the
//! line and the problem. No input panics.

use nonogram_hdl::options::clue_of;
use std::fmt;
use std::path::Path;

/// Longest line the host handles (rows or columns); the board takes fewer
/// ([`nonogram_hdl::params::MAX_LINE`]).
pub const MAX_HOST_LINE: usize = 64;

/// A puzzle file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Steve Simpson's `.non`.
    Non,
    /// The project's `board.txt`.
    Board,
    /// A grid of `#` and `.`.
    Picture,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Non => ".non",
            Format::Board => "board.txt",
            Format::Picture => "picture",
        }
    }
}

/// Why a puzzle file could not be read. `line` is 1-based; 0 means the file
/// as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// A nonogram: the clues of its rows (top to bottom) and columns (left to right).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Where it came from (a file name), for messages.
    pub name: String,
    pub title: Option<String>,
    pub rows: Vec<Vec<usize>>,
    pub columns: Vec<Vec<usize>>,
    /// Source line (1-based) of each row clue, then each column clue; 0 if unknown.
    pub lines: Vec<usize>,
    /// For a picture: the picture itself (row-major).
    pub picture: Option<Vec<bool>>,
}

impl Puzzle {
    /// A puzzle from clues (zeros are dropped). Does not check that clues fit.
    pub fn from_clues(name: &str, rows: Vec<Vec<usize>>, columns: Vec<Vec<usize>>) -> Puzzle {
        let strip = |v: Vec<Vec<usize>>| -> Vec<Vec<usize>> {
            v.into_iter()
                .map(|c| c.into_iter().filter(|&b| b > 0).collect())
                .collect()
        };
        let (rows, columns) = (strip(rows), strip(columns));
        let lines = vec![0; rows.len() + columns.len()];
        Puzzle {
            name: name.to_string(),
            title: None,
            rows,
            columns,
            lines,
            picture: None,
        }
    }

    /// The puzzle whose solution is this picture (row-major, `true` = filled).
    pub fn from_picture(name: &str, height: usize, width: usize, cells: &[bool]) -> Puzzle {
        let (rows, columns) = nonogram_hdl::model::clues_of_picture(height, width, cells);
        let mut p = Puzzle::from_clues(name, rows, columns);
        p.picture = Some(cells.to_vec());
        p
    }

    pub fn width(&self) -> usize {
        self.columns.len()
    }

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// Every line's clue and length: rows top to bottom, then columns left to right.
    pub fn lines(&self) -> impl Iterator<Item = (&[usize], usize)> + '_ {
        let (w, h) = (self.width(), self.height());
        self.rows
            .iter()
            .map(move |c| (c.as_slice(), w))
            .chain(self.columns.iter().map(move |c| (c.as_slice(), h)))
    }

    /// "row 3" / "column 1" (1-based) for line `index` (rows first).
    pub fn line_name(&self, index: usize) -> String {
        if index < self.height() {
            format!("row {}", index + 1)
        } else {
            format!("column {}", index - self.height() + 1)
        }
    }

    /// Reads a puzzle file, picking the format by extension and content;
    /// `-` reads standard input (the format then comes from the content).
    pub fn load(path: &Path) -> Result<Puzzle, ParseError> {
        let stdin = path.as_os_str() == "-";
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let read = if stdin {
            let mut bytes = vec![];
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).map(|_| bytes)
        } else {
            std::fs::read(path)
        };
        let bytes = read.map_err(|e| ParseError {
            file: name.clone(),
            line: 0,
            message: format!("cannot read the file: {e}"),
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            ParseError {
                file: name.clone(),
                line,
                message: "the file is not UTF-8 text".into(),
            }
        })?;
        Puzzle::parse(&name, &text, None)
    }

    /// Parses `text` (from file `name`) in `format`, or the detected format.
    /// The result is checked ([`Puzzle::check`]).
    /// A UTF-8 byte-order mark is skipped; CR, CRLF and LF all end a line;
    /// tabs count as spaces.
    pub fn parse(name: &str, text: &str, format: Option<Format>) -> Result<Puzzle, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let text = text
            .replace("\r\n", "\n")
            .replace(['\r'], "\n")
            .replace('\t', " ");
        let text = text.as_str();
        let format = format.unwrap_or_else(|| detect(name, text));
        let mut puzzle = match format {
            Format::Non => parse_non(name, text)?,
            Format::Board => parse_board(name, text)?,
            Format::Picture => parse_picture(name, text)?,
        };
        puzzle.name = name.to_string();
        puzzle.check()?;
        Ok(puzzle)
    }

    /// Checks the size (1..=64 rows and columns) and that every clue fits its line.
    pub fn check(&self) -> Result<(), ParseError> {
        let err = |line: usize, message: String| ParseError {
            file: self.name.clone(),
            line,
            message,
        };
        for (what, n) in [("rows", self.height()), ("columns", self.width())] {
            if n == 0 {
                return Err(err(0, format!("the puzzle has no {what}")));
            }
            if n > MAX_HOST_LINE {
                return Err(err(
                    0,
                    format!("the puzzle has {n} {what}; nonohost takes at most {MAX_HOST_LINE}"),
                ));
            }
        }
        for (i, (clue, length)) in self.lines().enumerate() {
            let need = clue.iter().sum::<usize>() + clue.len().saturating_sub(1);
            if need > length {
                return Err(err(
                    self.lines.get(i).copied().unwrap_or(0),
                    format!(
                        "{}: clue {} needs {need} cells but the line has {length}",
                        self.line_name(i),
                        clue_text(clue, ",")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether `cells` (row-major) satisfies every clue; `Err` names the first
    /// line that does not.
    pub fn check_solution(&self, cells: &[bool]) -> Result<(), String> {
        let (w, h) = (self.width(), self.height());
        if cells.len() != w * h {
            return Err(format!("{} cells, expected {}", cells.len(), w * h));
        }
        let word =
            |it: &mut dyn Iterator<Item = bool>| it.enumerate().fold(0u64, |a, (i, b)| a | (b as u64) << i);
        for r in 0..h {
            let got = clue_of(word(&mut (0..w).map(|c| cells[r * w + c])), w);
            if got != self.rows[r] {
                return Err(format!(
                    "row {} reads {} but its clue is {}",
                    r + 1,
                    clue_text(&got, ","),
                    clue_text(&self.rows[r], ",")
                ));
            }
        }
        for c in 0..w {
            let got = clue_of(word(&mut (0..h).map(|r| cells[r * w + c])), h);
            if got != self.columns[c] {
                return Err(format!(
                    "column {} reads {} but its clue is {}",
                    c + 1,
                    clue_text(&got, ","),
                    clue_text(&self.columns[c], ",")
                ));
            }
        }
        Ok(())
    }

    /// The puzzle in board.txt format.
    pub fn to_board_txt(&self) -> String {
        let mut s = String::new();
        if let Some(t) = &self.title {
            s.push_str(&format!("# {t}\n"));
        }
        s.push_str(&format!(
            "# {} x {} (columns x rows)\nrows:\n",
            self.width(),
            self.height()
        ));
        for c in &self.rows {
            s.push_str(&clue_text(c, " "));
            s.push('\n');
        }
        s.push_str("columns:\n");
        for c in &self.columns {
            s.push_str(&clue_text(c, " "));
            s.push('\n');
        }
        s
    }

    /// The puzzle in `.non` format.
    pub fn to_non(&self) -> String {
        let mut s = String::new();
        if let Some(t) = &self.title {
            s.push_str(&format!("title \"{t}\"\n"));
        }
        s.push_str(&format!(
            "width {}\nheight {}\n\nrows\n",
            self.width(),
            self.height()
        ));
        for c in &self.rows {
            s.push_str(&clue_text(c, ","));
            s.push('\n');
        }
        s.push_str("\ncolumns\n");
        for c in &self.columns {
            s.push_str(&clue_text(c, ","));
            s.push('\n');
        }
        s
    }
}

/// A clue as text: "0" when empty, else the numbers joined by `sep`.
pub fn clue_text(clue: &[usize], sep: &str) -> String {
    if clue.is_empty() {
        "0".into()
    } else {
        clue.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(sep)
    }
}

/// Guesses the format: `.non` by extension or by a `width`/`height` line;
/// board.txt by a `rows`/`columns` section header; a picture otherwise.
pub fn detect(name: &str, text: &str) -> Format {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".non") {
        return Format::Non;
    }
    let mut header = false;
    for line in text.lines() {
        let line = strip_comment(line).trim();
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("").to_ascii_lowercase();
        let first = first.trim_end_matches(':');
        match first {
            "width" | "height" => return Format::Non,
            "rows" | "columns" if words.next().is_none() => header = true,
            _ => {}
        }
    }
    if header {
        Format::Board
    } else {
        Format::Picture
    }
}

fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    }
}

struct Errors<'a> {
    file: &'a str,
}

impl Errors<'_> {
    fn at(&self, line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }
}

/// Parses a clue: numbers separated by commas and/or spaces; `0` or `-` alone
/// is the empty clue; zeros are dropped.
fn parse_clue(text: &str, e: &Errors, line: usize) -> Result<Vec<usize>, ParseError> {
    let text = text.trim();
    if text.is_empty() || text == "-" {
        return Ok(Vec::new());
    }
    let mut clue = Vec::new();
    for token in text.split(|c: char| c == ',' || c.is_whitespace()) {
        if token.is_empty() {
            continue;
        }
        if !token.bytes().all(|b| b.is_ascii_digit()) {
            let what = if token.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
                format!("'{token}' is not a number (colour clues are not supported)")
            } else {
                format!("'{token}' is not a number")
            };
            return Err(e.at(line, format!("bad clue '{text}': {what}")));
        }
        let n: usize = token
            .parse()
            .ok()
            .filter(|&n: &usize| n <= 1_000_000)
            .ok_or_else(|| e.at(line, format!("bad clue '{text}': {token} is too large")))?;
        if n > 0 {
            clue.push(n);
        }
    }
    if clue.len() > MAX_HOST_LINE {
        return Err(e.at(line, format!("bad clue: {} numbers is too many", clue.len())));
    }
    Ok(clue)
}

fn parse_dimension(word: &str, rest: &str, e: &Errors, line: usize) -> Result<usize, ParseError> {
    let value = rest.trim();
    let n: usize = value
        .parse()
        .map_err(|_| e.at(line, format!("{word}: expected a number, found '{value}'")))?;
    if n == 0 || n > MAX_HOST_LINE {
        return Err(e.at(line, format!("{word} {n}: must be between 1 and {MAX_HOST_LINE}")));
    }
    Ok(n)
}

/// Steve Simpson's `.non` format. Keywords in any order; `width w` (or
/// `columns w`) and `height h` (or `rows h`) give the size; a line `rows`
/// (`columns`) is followed by h (w) clue lines, comma-separated. Blank lines
/// in a section are ignored when the non-blank ones are exactly the count,
/// else they are empty clues. Lines that begin with another word are
/// properties (title, by, copyright, goal, …) and are ignored.
fn parse_non(file: &str, text: &str) -> Result<Puzzle, ParseError> {
    let e = Errors { file };
    let lines: Vec<&str> = text.lines().collect();
    let mut width = None;
    let mut height = None;
    let mut title = None;
    // First pass: the size (it may come after the sections).
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        let (word, rest) = split_word(line);
        let word = word.to_ascii_lowercase();
        let set = |slot: &mut Option<(usize, usize)>, what: &str| -> Result<(), ParseError> {
            let n = parse_dimension(what, rest, &e, i + 1)?;
            if let Some((m, at)) = *slot {
                if m != n {
                    return Err(e.at(i + 1, format!("{what} {n} contradicts {what} {m} on line {at}")));
                }
            }
            *slot = Some((n, i + 1));
            Ok(())
        };
        match word.as_str() {
            "width" => set(&mut width, "width")?,
            "height" => set(&mut height, "height")?,
            "columns" if !rest.trim().is_empty() => set(&mut width, "width")?,
            "rows" if !rest.trim().is_empty() => set(&mut height, "height")?,
            "title" => title = Some(unquote(rest.trim()).to_string()),
            _ => {}
        }
    }
    let (width, _) = width.ok_or_else(|| e.at(0, "no 'width' line: not a valid .non file"))?;
    let (height, _) = height.ok_or_else(|| e.at(0, "no 'height' line: not a valid .non file"))?;

    let mut rows: Option<(Vec<Vec<usize>>, Vec<usize>)> = None;
    let mut columns: Option<(Vec<Vec<usize>>, Vec<usize>)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        let (word, rest) = split_word(line);
        let word = word.to_ascii_lowercase();
        let is_section = (word == "rows" || word == "columns") && rest.trim().is_empty();
        if is_section {
            let (count, slot, what) = if word == "rows" {
                (height, &mut rows, "row")
            } else {
                (width, &mut columns, "column")
            };
            if slot.is_some() {
                return Err(e.at(i + 1, format!("a second '{word}' section")));
            }
            // The section: lines up to the next line that begins with a letter.
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !starts_with_letter(lines[end]) {
                end += 1;
            }
            let section: Vec<(usize, &str)> = (start..end).map(|j| (j + 1, lines[j].trim())).collect();
            let filled: Vec<(usize, &str)> = section.iter().copied().filter(|(_, l)| !l.is_empty()).collect();
            let chosen: Vec<(usize, &str)> = if filled.len() >= count {
                if filled.len() > count {
                    let (at, _) = filled[count];
                    return Err(e.at(
                        at,
                        format!(
                            "more {what} clues than the {} ({count})",
                            if what == "row" { "height" } else { "width" }
                        ),
                    ));
                }
                filled
            } else {
                // Blank lines are empty clues: drop trailing blanks, then
                // leading ones if still too many.
                let mut s: &[(usize, &str)] = &section;
                while s.len() > count && s.last().is_some_and(|(_, l)| l.is_empty()) {
                    s = &s[..s.len() - 1];
                }
                while s.len() > count && s.first().is_some_and(|(_, l)| l.is_empty()) {
                    s = &s[1..];
                }
                if s.len() != count {
                    let at = if end < lines.len() { end + 1 } else { i + 1 };
                    return Err(e.at(
                        at,
                        format!(
                            "'{word}' section has {} clue lines ({} blank), expected {count}",
                            filled.len(),
                            section.len() - filled.len()
                        ),
                    ));
                }
                s.to_vec()
            };
            let mut clues = Vec::with_capacity(count);
            let mut at = Vec::with_capacity(count);
            for (n, l) in chosen {
                clues.push(parse_clue(l, &e, n)?);
                at.push(n);
            }
            *slot = Some((clues, at));
            i = end;
            continue;
        }
        if !line.is_empty() && !starts_with_letter(line) && !line.starts_with('#') {
            return Err(e.at(i + 1, format!("'{line}' is outside a rows or columns section")));
        }
        i += 1;
    }
    let (rows, row_at) = rows.ok_or_else(|| e.at(0, "no 'rows' section"))?;
    let (columns, column_at) = columns.ok_or_else(|| e.at(0, "no 'columns' section"))?;
    Ok(Puzzle {
        name: file.to_string(),
        title,
        rows,
        columns,
        lines: row_at.into_iter().chain(column_at).collect(),
        picture: None,
    })
}

fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim_start();
    match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    }
}

fn starts_with_letter(line: &str) -> bool {
    line.trim_start()
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic())
}

fn unquote(s: &str) -> &str {
    s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s)
}

/// The project's board.txt: see README-host.md.
fn parse_board(file: &str, text: &str) -> Result<Puzzle, ParseError> {
    let e = Errors { file };
    #[derive(PartialEq)]
    enum Section {
        None,
        Rows,
        Columns,
    }
    let mut section = Section::None;
    let mut rows = Vec::new();
    let mut columns = Vec::new();
    let mut row_at = Vec::new();
    let mut column_at = Vec::new();
    let mut seen = (0usize, 0usize);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let header = line.strip_suffix(':').unwrap_or(line).trim().to_ascii_lowercase();
        match header.as_str() {
            "rows" => {
                if seen.0 != 0 {
                    return Err(e.at(
                        n,
                        format!("a second 'rows' section (the first is on line {})", seen.0),
                    ));
                }
                seen.0 = n;
                section = Section::Rows;
                continue;
            }
            "columns" => {
                if seen.1 != 0 {
                    return Err(e.at(
                        n,
                        format!("a second 'columns' section (the first is on line {})", seen.1),
                    ));
                }
                seen.1 = n;
                section = Section::Columns;
                continue;
            }
            _ => {}
        }
        let clue = parse_clue(line, &e, n)?;
        match section {
            Section::None => {
                return Err(e.at(
                    n,
                    format!("'{line}' comes before any 'rows:' or 'columns:' header"),
                ));
            }
            Section::Rows => {
                rows.push(clue);
                row_at.push(n);
            }
            Section::Columns => {
                columns.push(clue);
                column_at.push(n);
            }
        }
    }
    if seen.0 == 0 {
        return Err(e.at(0, "no 'rows:' section"));
    }
    if seen.1 == 0 {
        return Err(e.at(0, "no 'columns:' section"));
    }
    if rows.is_empty() {
        return Err(e.at(seen.0, "the 'rows:' section is empty"));
    }
    if columns.is_empty() {
        return Err(e.at(seen.1, "the 'columns:' section is empty"));
    }
    Ok(Puzzle {
        name: file.to_string(),
        title: None,
        rows,
        columns,
        lines: row_at.into_iter().chain(column_at).collect(),
        picture: None,
    })
}

/// A picture: one line per row, `#`, `X`, `x`, `1`, `*` filled, `.`, `-`,
/// `0`, `_` empty; spaces and tabs between cells are ignored; blank lines
/// before and after the picture are ignored.
fn parse_picture(file: &str, text: &str) -> Result<Puzzle, ParseError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clue_parsing() {
        let e = Errors { file: "f" };
        assert_eq!(parse_clue("1, 2 3", &e, 1).unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_clue("0", &e, 1).unwrap(), Vec::<usize>::new());
        assert_eq!(parse_clue("-", &e, 1).unwrap(), Vec::<usize>::new());
        assert!(parse_clue("3b", &e, 4).unwrap_err().message.contains("colour"));
        assert!(parse_clue("99999999999999999999999", &e, 4).is_err());
    }
}
