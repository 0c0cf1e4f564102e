//! Steve Simpson's `.non` format, with nonogram-db's and pbnsolve's extensions.

use super::colours::{goal_cells, hints, into_any, parse_block_clue, Palette};
use super::{parse_dimension, AnyPuzzle, Errors, ParseError, Puzzle};
use crate::colour::{rgb_of, ColourPuzzle, Rule};

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
                declared.push((i + 1, ch, value.and_then(rgb_of)));
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
            let chosen = choose_clue_lines(&section, count).map_err(|found| {
                let at = if end < lines.len() { end + 1 } else { i + 1 };
                let size = if what == "row" { "height" } else { "width" };
                if found > count {
                    let (at, _) = filled.get(count).copied().unwrap_or((at, ""));
                    e.at(at, format!("more {what} clues than the {size} ({count})"))
                } else {
                    e.at(
                        at,
                        format!(
                            "'{word}' section has {found} clue lines ({} blank), expected {count} (the {size}): {what} {} is missing",
                            section.len() - filled.len(),
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

fn unquote(s: &str) -> &str {
    s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s)
}

/// The clue lines of a section of `count` lines (see [`parse`]), each with
/// its line number; `Err` holds how many clue lines there are instead.
fn choose_clue_lines<'a>(section: &[(usize, &'a str)], count: usize) -> Result<Vec<(usize, &'a str)>, usize> {
    let filled: Vec<(usize, &str)> = section.iter().copied().filter(|(_, l)| !l.is_empty()).collect();
    if filled.len() >= count {
        return if filled.len() == count {
            Ok(filled)
        } else {
            Err(filled.len())
        };
    }
    let blank = |l: Option<&(usize, &str)>| l.is_some_and(|(_, l)| l.is_empty());
    let mut s = section;
    // The separator before the next keyword.
    if blank(s.last()) {
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
        Err(s.len())
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
