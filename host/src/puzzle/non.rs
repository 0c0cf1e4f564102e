//! Steve Simpson's `.non` format, with nonogram-db's and pbnsolve's extensions.

use super::colours::{colour_value, goal_cells, hints, into_any, parse_block_clue, Palette};
use super::{parse_dimension, AnyPuzzle, Errors, ParseError, Puzzle};
use crate::colour::{ColourPuzzle, Rule};

/// Steve Simpson's `.non` format. Keywords in any order; `width w` (or
/// `columns w`) and `height h` (or `rows h`) give the size; a line `rows`
/// (`columns`) is followed by h (w) clue lines, comma-separated.
///
/// Blank lines in a section are ignored when the others are exactly the
/// count (Simpson's rule); else blank lines inside the section are empty
/// clues (nonogram-db's rule), except the one right before the next keyword,
/// which separates sections. A section that is still short is an error that
/// names the first missing line.
///
/// A line whose first character is `#` is a comment, anywhere but inside a
/// goal grid (where `#` is a filled cell); so is a `#` after a space on a
/// clue line or after a size (`2,1  # the handle`).
///
/// `goal` gives the intended solution: `goal "0110…"` on one line (`0` empty,
/// anything else filled), or `goal` followed by one line per row (pbnsolve's
/// grid, with `#`/`.` or `1`/`0`). Lines that begin with another word are
/// properties (title, by, copyright, …) and are ignored.
///
/// Colour (nonogram-db's extension): `color a #ff0000` declares colour
/// `a`, and a block may carry its colour's character (`3a,1b`); a block
/// without one has the default colour `1`, and the goal writes each cell's
/// character (`0` for the background). Without `color` lines, any
/// character may name a colour (a picture then picks its own).
pub fn parse(file: &str, text: &str) -> Result<AnyPuzzle, ParseError> {
    let e = Errors { file };
    let lines: Vec<&str> = text.lines().collect();
    let mut width = None;
    let mut height = None;
    let mut title = None;
    let mut declared: Vec<(usize, char, Option<[u8; 3]>)> = Vec::new();
    // First pass: the size (it may come after the sections).
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        let (word, rest) = split_word(line);
        let word = word.to_ascii_lowercase();
        let set = |slot: &mut Option<(usize, usize)>, what: &str| -> Result<(), ParseError> {
            let n = parse_dimension(what, uncomment(rest), &e, i + 1)?;
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
            "columns" if !uncomment(rest).trim().is_empty() => set(&mut width, "width")?,
            "rows" if !uncomment(rest).trim().is_empty() => set(&mut height, "height")?,
            "title" => title = Some(unquote(rest.trim()).to_string()),
            "color" | "colour" => {
                let mut words = rest.split_whitespace();
                let (Some(key), value) = (words.next(), words.next()) else {
                    return Err(e.at(
                        i + 1,
                        "'color' needs a character and a value, as in 'color a #ff0000'",
                    ));
                };
                let mut chars = key.chars();
                let (Some(ch), None) = (chars.next(), chars.next()) else {
                    return Err(e.at(
                        i + 1,
                        format!("'color {key}': a colour is named by one character"),
                    ));
                };
                if ch.is_ascii_digit() || ch == ',' {
                    return Err(e.at(
                        i + 1,
                        format!("'color {ch}': digits and commas cannot name a colour"),
                    ));
                }
                let rgb = match value {
                    Some(v) => Some(colour_value(v).map_err(|m| e.at(i + 1, m))?),
                    None => None,
                };
                declared.push((i + 1, ch, rgb.flatten()));
            }
            _ => {}
        }
    }
    let (width, _) = width.ok_or_else(|| e.at(0, "no 'width' line: not a valid .non file"))?;
    let (height, _) = height.ok_or_else(|| e.at(0, "no 'height' line: not a valid .non file"))?;

    let mut goal = None;
    type Clues = Vec<Vec<(usize, Option<char>)>>;
    let mut rows: Option<(Clues, Vec<usize>)> = None;
    let mut columns: Option<(Clues, Vec<usize>)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        let (word, rest) = split_word(line);
        let word = word.to_ascii_lowercase();
        let is_section = (word == "rows" || word == "columns") && uncomment(rest).trim().is_empty();
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
            // Comment lines are no lines of the section.
            let section: Vec<(usize, &str)> = (start..end)
                .filter(|&j| !lines[j].trim_start().starts_with('#'))
                .map(|j| (j + 1, uncomment(lines[j]).trim()))
                .collect();
            let filled: Vec<(usize, &str)> = section.iter().copied().filter(|(_, l)| !l.is_empty()).collect();
            let at_end = end == lines.len();
            let chosen = choose_clue_lines(&section, count, at_end).map_err(|(found, blank, separator)| {
                let at = if at_end { i + 1 } else { end + 1 };
                let size = if what == "row" { "height" } else { "width" };
                if found > count {
                    let (at, _) = filled.get(count).copied().unwrap_or((at, ""));
                    e.at(at, format!("more {what} clues than the {size} ({count})"))
                } else {
                    let blank = if blank > 0 {
                        format!(" ({blank} blank)")
                    } else {
                        String::new()
                    };
                    let separator = if separator {
                        format!(" (the blank line before the next keyword separates sections; write 0 for an empty {what})")
                    } else {
                        String::new()
                    };
                    // A word where a clue was expected (`abc`, `r1`) ends
                    // the section as a keyword would: say so.
                    let ended_by = match lines.get(end).map(|l| split_word(l.trim()).0.to_ascii_lowercase()) {
                        Some(w) if !at_end && !["rows", "columns", "goal"].contains(&w.as_str()) => format!(
                            "; this line (`{}`) ends the section: it begins with a letter, and clue lines are numbers",
                            lines[end].trim().chars().take(40).collect::<String>()
                        ),
                        _ => String::new(),
                    };
                    e.at(
                        at,
                        format!(
                            "'{word}' section has {found} clue lines{blank}, expected {count} (the {size}): {what} {} is missing{separator}{ended_by}",
                            found + 1
                        ),
                    )
                }
            })?;
            let mut clues = Vec::with_capacity(count);
            let mut at = Vec::with_capacity(count);
            for (n, l) in chosen {
                clues.push(parse_block_clue(l, &e, n)?);
                at.push(n);
            }
            *slot = Some((clues, at));
            i = end;
            continue;
        }
        if word == "goal" {
            let (cells, next) = read_goal(&lines, i, width * height);
            if cells.len() != width * height {
                return Err(e.at(
                    i + 1,
                    format!(
                        "the goal has {} cells but the puzzle has {width} x {height} = {}",
                        cells.len(),
                        width * height
                    ),
                ));
            }
            goal = Some((cells, i + 1));
            i = next;
            continue;
        }
        if !line.is_empty() && !starts_with_letter(line) && !line.starts_with('#') {
            return Err(e.at(i + 1, format!("'{line}' is outside a rows or columns section")));
        }
        i += 1;
    }
    let (rows, row_at) = rows.ok_or_else(|| e.at(0, "no 'rows' section"))?;
    let (columns, column_at) = columns.ok_or_else(|| e.at(0, "no 'columns' section"))?;
    let lines: Vec<usize> = row_at.into_iter().chain(column_at).collect();
    let coloured = rows.iter().chain(&columns).flatten().any(|(_, c)| c.is_some());
    if !coloured && declared.is_empty() {
        let lengths = |clues: Clues| -> Vec<Vec<usize>> {
            clues
                .into_iter()
                .map(|c| c.into_iter().map(|(n, _)| n).collect())
                .collect()
        };
        let goal = goal.map(|(chars, at): (Vec<char>, usize)| {
            (
                chars
                    .iter()
                    .map(|c| !matches!(c, '0' | '.' | '-' | '_'))
                    .collect(),
                at,
            )
        });
        return Ok(AnyPuzzle::Mono(Puzzle {
            name: file.to_string(),
            title,
            rows: lengths(rows),
            columns: lengths(columns),
            lines,
            picture: None,
            goal,
        }));
    }
    // Colour: the background, the declared colours, then any other
    // character the clues use (in the order they first appear).
    let mut palette = Palette::new("white", '.', None);
    for (at, ch, rgb) in &declared {
        palette
            .add(&ch.to_string(), *ch, *rgb)
            .map_err(|m| e.at(*at, m))?;
    }
    let mut colour_of = |ch: Option<char>, at: usize| -> Result<u8, ParseError> {
        let ch = ch.unwrap_or('1');
        if let Some(i) = palette.by_char(ch).filter(|&i| i != 0) {
            return Ok(i);
        }
        if !declared.is_empty() && ch != '1' {
            return Err(e.at(at, format!("colour '{ch}' is not declared by any 'color' line")));
        }
        let name = if ch == '1' {
            "black".to_string()
        } else {
            ch.to_string()
        };
        palette.add(&name, ch, None).map_err(|m| e.at(at, m))
    };
    let mut to_hints = |clues: Clues, at: &[usize]| -> Result<Vec<Vec<crate::colour::Hint>>, ParseError> {
        clues
            .into_iter()
            .zip(at)
            .map(|(clue, &at)| {
                let c: Result<Vec<(usize, u8)>, ParseError> = clue
                    .into_iter()
                    .map(|(n, ch)| Ok((n, colour_of(ch, at)?)))
                    .collect();
                Ok(hints(&c?))
            })
            .collect()
    };
    let rows = to_hints(rows, &lines[..height])?;
    let columns = to_hints(columns, &lines[height..])?;
    let goal = match goal {
        None => None,
        Some((chars, at)) => {
            let text: String = chars.iter().map(|&c| if c == '0' { '.' } else { c }).collect();
            let cells = goal_cells(&text, &palette, &[]).map_err(|ch| {
                e.at(
                    at,
                    format!("the goal has '{ch}', which is no colour of the clues"),
                )
            })?;
            Some((cells, at))
        }
    };
    into_any(ColourPuzzle {
        name: file.to_string(),
        title,
        rule: Rule::Blocks,
        colours: palette.colours,
        rows,
        columns,
        lines,
        goal,
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

/// `line` up to a `#` that begins it or follows a space: a comment. (A `#`
/// that touches a number is a colour character.)
fn uncomment(line: &str) -> &str {
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        if c == '#' && prev.is_whitespace() {
            return &line[..i];
        }
        prev = c;
    }
    line
}

fn unquote(s: &str) -> &str {
    s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s)
}

/// The clue lines of a section of `count` lines (see [`parse`]), each with
/// its line number. `at_end`: the section ends the file, so a last blank
/// line is no separator when the section needs it. `Err` holds how many
/// clue lines there are instead, how many of them are blank, and whether a
/// blank line was left out as the separator.
fn choose_clue_lines<'a>(
    section: &[(usize, &'a str)],
    count: usize,
    at_end: bool,
) -> Result<Vec<(usize, &'a str)>, (usize, usize, bool)> {
    let filled: Vec<(usize, &str)> = section.iter().copied().filter(|(_, l)| !l.is_empty()).collect();
    if filled.len() >= count {
        return if filled.len() == count {
            Ok(filled)
        } else {
            Err((filled.len(), 0, false))
        };
    }
    let blank = |l: Option<&(usize, &str)>| l.is_some_and(|(_, l)| l.is_empty());
    let mut s = section;
    // The separator before the next keyword (a blank last line of the file
    // is the last clue when exactly that one is missing).
    let separator = blank(s.last()) && !(at_end && s.len() == count);
    if separator {
        s = &s[..s.len() - 1];
    }
    while s.len() > count && blank(s.last()) {
        s = &s[..s.len() - 1];
    }
    while s.len() > count && blank(s.first()) {
        s = &s[1..];
    }
    if s.len() == count {
        Ok(s.to_vec())
    } else {
        let blanks = s.iter().filter(|(_, l)| l.is_empty()).count();
        Err((s.len(), blanks, separator && !at_end))
    }
}

/// Keywords that end a pbnsolve goal grid.
const KEYWORDS: [&str; 12] = [
    "width",
    "height",
    "rows",
    "columns",
    "goal",
    "title",
    "by",
    "copyright",
    "license",
    "catalogue",
    "color",
    "maxrule",
];

/// The goal that starts on line `at`: its cells' characters and the index
/// of the line after it. It is the rest of the `goal` line, and when that
/// holds fewer than `cells` cells, the following lines up to a blank line
/// or a keyword.
fn read_goal(lines: &[&str], at: usize, cells: usize) -> (Vec<char>, usize) {
    let cells_of = |text: &str| -> Vec<char> {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != '"' && *c != '|')
            .collect()
    };
    let (_, rest) = split_word(lines[at].trim());
    let mut goal = cells_of(rest);
    let mut next = at + 1;
    while goal.len() < cells && next < lines.len() {
        let line = lines[next].trim();
        let (word, _) = split_word(line);
        if line.is_empty() || KEYWORDS.contains(&word.to_ascii_lowercase().as_str()) {
            break;
        }
        goal.extend(cells_of(line));
        next += 1;
    }
    (goal, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mono(text: &str) -> Puzzle {
        match parse("t.non", text) {
            Ok(AnyPuzzle::Mono(p)) => p,
            other => panic!("not a black-and-white puzzle: {other:?}"),
        }
    }

    #[test]
    fn comment_lines_anywhere() {
        let text = "# nonogram-db style\nwidth 3  # three\nheight 2\nrows\n# the rows\n1,1\n3  # full\n# between\n\ncolumns\n2\n# inside\n1\n2\n# at the end\n";
        let p = mono(text);
        assert_eq!(p.rows, vec![vec![1, 1], vec![3]]);
        assert_eq!(p.columns, vec![vec![2], vec![1], vec![2]]);
        // Clue lines keep their own line numbers.
        assert_eq!(p.lines, vec![6, 7, 11, 13, 14]);
        // A `#` that touches a number is a colour, and a goal grid's `#` a cell.
        let text = "width 2\nheight 1\ncolor # #000000\nrows\n2#\ncolumns\n1#\n1#\ngoal\n##\n";
        assert!(matches!(parse("t.non", text), Ok(AnyPuzzle::Mono(_))));
        let text = "width 2\nheight 2\nrows\n2\n# a comment\n1\ncolumns\n2\n1\ngoal\n##\n#.\n";
        assert_eq!(mono(text).goal, Some((vec![true, true, true, false], 10)));
        // A short section names the missing line, not a comment.
        let e = parse("t.non", "width 3\nheight 2\nrows\n# c\n1,1\ncolumns\n1\n0\n1\n").unwrap_err();
        assert_eq!(e.line, 6, "{e}");
        assert!(e.message.contains("row 2 is missing"), "{e}");
        // A word where a clue belongs is named: it is why the section ended.
        let e = parse(
            "t.non",
            "width 3\nheight 3\nrows\nabc\n0\n1\ncolumns\n1\n1,1\n1\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(
            e.message.contains("row 1 is missing") && e.message.contains("(`abc`) ends the section"),
            "{e}"
        );
        // The next keyword is no surprise, and is not named.
        let e = parse("t.non", "width 3\nheight 2\nrows\n1\ncolumns\n1\n0\n1\n").unwrap_err();
        assert!(!e.message.contains("ends the section"), "{e}");
    }

    #[test]
    fn a_blank_last_line_is_the_missing_empty_clue() {
        let p = mono("width 2\nheight 3\nrows\n1\n1\n\n\ncolumns\n2\n\n");
        assert_eq!(p.columns, vec![vec![2], vec![]]);
        assert_eq!(p.lines, vec![4, 5, 6, 9, 10]);
        // Only the one missing line.
        let e = parse("t.non", "width 3\nheight 1\nrows\n1\ncolumns\n1\n\n").unwrap_err();
        assert!(e.message.contains("column 2 is missing"), "{e}");
        // Before a keyword, a single blank line still separates; the message
        // says so instead of counting it as a clue line.
        let e = parse("t.non", "width 2\nheight 3\nrows\n1\n1\n\ncolumns\n2\n0\n").unwrap_err();
        assert_eq!(e.line, 7, "{e}");
        assert!(!e.message.contains("blank)"), "{e}");
        assert!(e.message.contains("separates sections"), "{e}");
    }

    #[test]
    fn a_colour_value_that_is_not_hexadecimal_is_refused() {
        let text =
            "width 3\nheight 2\ncolour r #zzzzzz\ncolour g #00ff00\nrows\n2r,1g\n1g\ncolumns\n1r\n1r\n2g\n";
        let e = parse("t.non", text).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("#zzzzzz"), "{e}");
        // Names and no value at all are accepted.
        assert!(parse("t.non", &text.replace("#zzzzzz", "red")).is_ok());
        assert!(parse("t.non", &text.replace(" #zzzzzz", "")).is_ok());
    }
}
