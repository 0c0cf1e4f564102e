//! Puzzles and the file formats `nonohost` reads, one module each.
//!
//! * Steve Simpson's `.non` format (`width`, `height`, `rows`, `columns`,
//!   `goal`, …), as nonogram-db and pbnsolve write it, with nonogram-db's
//!   colours;
//! * webpbn's XML, any number of colours;
//! * Olšák's `.g`, with its colour table;
//! * the codes of This Puzzle Does Not Exist (one per line);
//! * the project's own `board.txt` (a `rows` and a `columns` section);
//! * a picture (`#` filled, `.` empty), from which the clues are derived.
//!
//! [`load_any`] reads any of them; a file whose clues use one ink is black
//! and white ([`Puzzle`]), else a [`ColourPuzzle`]. [`Puzzle::load`] and
//! [`Puzzle::parse`] take black and white only, for the board. Every
//! malformed file gives a [`ParseError`] naming the file, the line and the
//! problem. No input panics.

mod board;
mod colours;
mod non;
mod olsak;
mod picture;
pub mod tpdne;
mod xml;

pub use crate::colour::ColourPuzzle;

use nonogram_hdl::dnf::options::clue_of_cells;
use std::fmt;
use std::path::Path;

/// Most rows or columns the host handles (its software solver's limit); the
/// board takes fewer ([`nonogram_hdl::common::params::MAX_LINE`], and 64 for the
/// clue engine).
pub const MAX_HOST_LINE: usize = crate::solver::MAX_CELLS;

/// A puzzle file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Steve Simpson's `.non`.
    Non,
    /// The project's `board.txt`.
    Board,
    /// A grid of `#` and `.`.
    Picture,
    /// webpbn's XML (`<puzzleset>`, `<puzzle>`, `<clues>`).
    Xml,
    /// Olšák's `.g` (colon lines, a `#d` colour table).
    Olsak,
    /// This Puzzle Does Not Exist's codes.
    Tpdne,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Non => ".non",
            Format::Board => "board.txt",
            Format::Picture => "picture",
            Format::Xml => "webpbn XML",
            Format::Olsak => "Olšák .g",
            Format::Tpdne => "TPDNE code",
        }
    }
}

/// A puzzle of either kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPuzzle {
    Mono(Puzzle),
    Colour(ColourPuzzle),
}

impl AnyPuzzle {
    pub fn name(&self) -> &str {
        match self {
            AnyPuzzle::Mono(p) => &p.name,
            AnyPuzzle::Colour(p) => &p.name,
        }
    }
}

/// Reads every puzzle of a file (a TPDNE file may hold many; other formats
/// one), picking the format by extension and content unless `format` says;
/// `-` reads standard input.
pub fn load_any(path: &Path, format: Option<Format>) -> Result<(Vec<AnyPuzzle>, Format), ParseError> {
    let (name, text) = read_text(path)?;
    parse_any(&name, &text, format)
}

/// [`load_any`] on `text` read from file `name`.
pub fn parse_any(
    name: &str,
    text: &str,
    format: Option<Format>,
) -> Result<(Vec<AnyPuzzle>, Format), ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text
        .replace("\r\n", "\n")
        .replace(['\r'], "\n")
        .replace('\t', " ");
    let text = text.as_str();
    let format = format.unwrap_or_else(|| detect(name, text));
    let mono = |p: Result<Puzzle, ParseError>| p.map(|p| vec![AnyPuzzle::Mono(p)]);
    let mut puzzles = match format {
        Format::Non => vec![non::parse(name, text)?],
        Format::Board => mono(board::parse(name, text))?,
        Format::Picture => mono(picture::parse(name, text))?,
        Format::Xml => vec![xml::parse(name, text)?],
        Format::Olsak => vec![olsak::parse(name, text)?],
        Format::Tpdne => tpdne::parse(name, text)?,
    };
    for p in &mut puzzles {
        match p {
            AnyPuzzle::Mono(p) => {
                p.name = name.to_string();
                p.check()?;
            }
            AnyPuzzle::Colour(p) => {
                p.name = name.to_string();
                check_colour(p)?;
            }
        }
    }
    Ok((puzzles, format))
}

/// Why the board's engines do not take a colour puzzle, naming its inks.
pub fn colour_refusal(p: &ColourPuzzle) -> String {
    let inks: Vec<&str> = p
        .colours
        .iter()
        .skip(usize::from(p.rule == crate::colour::Rule::Blocks))
        .map(|c| c.name.as_str())
        .collect();
    format!(
        "a colour puzzle ({} colours: {}): the board's engines and this command take black and white only; `nonohost solve` solves colour puzzles in software",
        inks.len(),
        inks.join(", ")
    )
}

/// The size limits and that each clue fits, for a colour puzzle.
fn check_colour(p: &ColourPuzzle) -> Result<(), ParseError> {
    let e = Errors { file: &p.name };
    for (what, n) in [("rows", p.height()), ("columns", p.width())] {
        if n == 0 {
            return Err(e.at(0, format!("the puzzle has no {what}")));
        }
        if n > MAX_HOST_LINE {
            return Err(e.at(
                0,
                format!("the puzzle has {n} {what}; nonohost takes at most {MAX_HOST_LINE}"),
            ));
        }
    }
    p.check_fit()
        .map_err(|(i, message)| e.at(p.lines.get(i).copied().unwrap_or(0), message))
}

/// The text of `path` (`-`: standard input) and the name to report it by.
fn read_text(path: &Path) -> Result<(String, String), ParseError> {
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
    let text = decode_text(&name, bytes)?;
    Ok((name, text))
}

/// A puzzle file's bytes as text: UTF-8 with no NUL (which is UTF-8, but
/// says the file is binary or UTF-16, and would only fail later, at some
/// line, for a reason that is not the real one).
fn decode_text(name: &str, bytes: Vec<u8>) -> Result<String, ParseError> {
    let line_of = |bytes: &[u8], at: usize| bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(ParseError {
            file: name.to_string(),
            line: line_of(&bytes, at),
            message: "the file holds a NUL byte: it is binary, or UTF-16 text (save it as UTF-8)".into(),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        ParseError {
            file: name.to_string(),
            line: line_of(e.as_bytes(), at),
            message: "the file is not UTF-8 text".into(),
        }
    })
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
    /// The solution the file says is intended (`.non`'s `goal`, webpbn's
    /// goal image), row-major, and the line it is on.
    pub goal: Option<(Vec<bool>, usize)>,
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
            goal: None,
        }
    }

    /// The puzzle whose solution is this picture (row-major, `true` = filled).
    pub fn from_picture(name: &str, height: usize, width: usize, cells: &[bool]) -> Puzzle {
        let (rows, columns) = nonogram_hdl::dnf::model::clues_of_picture(height, width, cells);
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
        Puzzle::load_as(path, None)
    }

    /// Reads a puzzle file in `format`, or the detected format (see [`Puzzle::load`]).
    pub fn load_as(path: &Path, format: Option<Format>) -> Result<Puzzle, ParseError> {
        Puzzle::load_detected(path, format).map(|(puzzle, _)| puzzle)
    }

    /// [`Puzzle::load_as`], with the format it was read in (`format`, or
    /// the one detected; standard input's too).
    pub fn load_detected(path: &Path, format: Option<Format>) -> Result<(Puzzle, Format), ParseError> {
        let (name, text) = read_text(path)?;
        Puzzle::parse_detected(&name, &text, format)
    }

    /// Parses `text` (from file `name`) in `format`, or the detected format.
    /// The result is checked ([`Puzzle::check`]).
    /// A UTF-8 byte-order mark is skipped; CR, CRLF and LF all end a line;
    /// tabs count as spaces.
    pub fn parse(name: &str, text: &str, format: Option<Format>) -> Result<Puzzle, ParseError> {
        Puzzle::parse_detected(name, text, format).map(|(puzzle, _)| puzzle)
    }

    /// [`Puzzle::parse`], with the format it was read in. A colour puzzle
    /// is refused, saying so: the board's engines are black and white.
    pub fn parse_detected(
        name: &str,
        text: &str,
        format: Option<Format>,
    ) -> Result<(Puzzle, Format), ParseError> {
        let (puzzles, format) = parse_any(name, text, format)?;
        match puzzles.into_iter().next() {
            Some(AnyPuzzle::Mono(p)) => Ok((p, format)),
            Some(AnyPuzzle::Colour(p)) => Err(ParseError {
                file: name.to_string(),
                line: 0,
                message: colour_refusal(&p),
            }),
            None => Err(ParseError {
                file: name.to_string(),
                line: 0,
                message: "no puzzle in the file".into(),
            }),
        }
    }

    /// Checks the size (1..=[`MAX_HOST_LINE`] rows and columns) and that every clue fits its line.
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
        for r in 0..h {
            let got = clue_of_cells((0..w).map(|c| cells[r * w + c]));
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
            let got = clue_of_cells((0..h).map(|r| cells[r * w + c]));
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
/// webpbn XML by extension (`.xml`, `.pbn`) or a leading `<`; Olšák's by
/// `.g` or a line that starts with a colon; TPDNE by `.tpdne` or
/// lines of one 68-character code each; board.txt by a `rows`/`columns`
/// section header; a picture otherwise.
pub fn detect(name: &str, text: &str) -> Format {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".non") {
        return Format::Non;
    }
    if lower.ends_with(".xml") || lower.ends_with(".pbn") || text.trim_start().starts_with('<') {
        return Format::Xml;
    }
    if lower.ends_with(".g") {
        return Format::Olsak;
    }
    if lower.ends_with(".tpdne") || tpdne::looks_like(text) {
        return Format::Tpdne;
    }
    // No other format has a line that starts with a colon.
    if text.lines().any(|l| l.starts_with(':')) {
        return Format::Olsak;
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

pub(crate) fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    }
}

pub(crate) struct Errors<'a> {
    pub(crate) file: &'a str,
}

impl Errors<'_> {
    pub(crate) fn at(&self, line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }
}

/// Parses a clue: numbers separated by commas and/or spaces; `0` or `-` alone
/// is the empty clue; zeros are dropped.
pub(crate) fn parse_clue(text: &str, e: &Errors, line: usize) -> Result<Vec<usize>, ParseError> {
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
                format!("'{token}' is not a number (board.txt has no colours: write colour puzzles as .non, .g or webpbn XML)")
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

pub(crate) fn parse_dimension(word: &str, rest: &str, e: &Errors, line: usize) -> Result<usize, ParseError> {
    let value = rest.trim();
    let n: usize = value
        .parse()
        .map_err(|_| e.at(line, format!("{word}: expected a number, found '{value}'")))?;
    if n == 0 || n > MAX_HOST_LINE {
        return Err(e.at(line, format!("{word} {n}: must be between 1 and {MAX_HOST_LINE}")));
    }
    Ok(n)
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
        assert!(parse_clue("3b", &e, 4).unwrap_err().message.contains("colours"));
        assert!(parse_clue("99999999999999999999999", &e, 4).is_err());
    }

    #[test]
    fn text_that_is_not_text_is_named_at_its_line() {
        assert_eq!(decode_text("f", b"width 3\n".to_vec()).unwrap(), "width 3\n");
        let e = decode_text("f", b"width 3\nheight 3\n\x00\x00".to_vec()).unwrap_err();
        assert_eq!((e.line, e.file.as_str()), (3, "f"));
        assert!(e.message.contains("NUL"), "{e}");
        let e = decode_text("f", b"width 3\n\xff".to_vec()).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not UTF-8"), "{e}");
    }
}
