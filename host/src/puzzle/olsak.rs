//! Olšák's `.g` format, as his `grid` solver, pbnsolve and nonogrid read it:
//!
//! ```text
//! Any text before the first line that starts with a colon is a comment.
//! #d
//!    0:   white     the background (optional: white)
//!    1:*  black     the colour of a block without a letter (optional)
//!    r:%  #ff0000   a colour: its letter in clues, its letter on screen, its value
//! : rows
//! 3r 1
//!                   (a blank line is a line with no blocks)
//! : columns
//! ...
//! : end             (everything after it is ignored)
//! ```
//!
//! The first colon line starts the rows, the second the columns, the third
//! ends the puzzle; the words after each colon are comments. Triddlers and
//! triangle blocks are not supported.

use super::colours::{hints, into_any, parse_block_clue, Palette};
use super::{AnyPuzzle, Errors, ParseError};
use crate::colour::{rgb_of, ColourPuzzle, Rule};

pub fn parse(file: &str, text: &str) -> Result<AnyPuzzle, ParseError> {
    let e = Errors { file };
    let lines: Vec<&str> = text.lines().collect();
    let colon = |l: &str| l.starts_with(':');
    let mut starts = lines.iter().enumerate().filter(|(_, l)| colon(l)).map(|(i, _)| i);
    let rows_at = starts.next().ok_or_else(|| {
        e.at(
            0,
            "no ': rows' line (a line that starts with a colon): not an Olšák .g file",
        )
    })?;
    let columns_at = starts
        .next()
        .ok_or_else(|| e.at(rows_at + 1, "no second colon line to start the columns"))?;
    let end = starts.next().unwrap_or(lines.len());

    let (palette, plain) = palette(&e, &lines[..rows_at])?;
    let mut palette = palette;
    let mut plain = plain;
    let mut section = |from: usize, to: usize| -> Result<Vec<(Vec<(usize, u8)>, usize)>, ParseError> {
        let mut body: Vec<(usize, &str)> = (from + 1..to).map(|i| (i + 1, lines[i].trim())).collect();
        // Blank lines after the last clue of an unterminated file are not clues.
        if to == lines.len() {
            while body.last().is_some_and(|(_, l)| l.is_empty()) {
                body.pop();
            }
        }
        let mut clues = Vec::with_capacity(body.len());
        for (at, text) in body {
            let mut clue = Vec::new();
            for (len, ch) in parse_block_clue(text, &e, at)? {
                let colour = match ch {
                    Some(ch) => palette.by_char(ch).filter(|&i| i != 0).ok_or_else(|| {
                        e.at(
                            at,
                            format!("block {len}{ch}: no colour '{ch}' in the #d declarations"),
                        )
                    })?,
                    // A plain number is the default colour, black unless declared.
                    None => match plain {
                        Some(i) => i,
                        None => {
                            let ch = ['*', '#', 'X']
                                .into_iter()
                                .find(|&c| palette.by_char(c).is_none())
                                .unwrap_or('@');
                            let i = palette.add("black", ch, None).map_err(|m| e.at(at, m))?;
                            plain = Some(i);
                            i
                        }
                    },
                };
                clue.push((len, colour));
            }
            clues.push((clue, at));
        }
        if clues.is_empty() {
            return Err(e.at(from + 1, "this section has no clue lines"));
        }
        Ok(clues)
    };
    let rows = section(rows_at, columns_at)?;
    let columns = section(columns_at, end)?;
    let lines = rows.iter().chain(&columns).map(|(_, at)| *at).collect();
    into_any(ColourPuzzle {
        name: file.to_string(),
        title: None,
        rule: Rule::Blocks,
        colours: palette.colours,
        rows: rows.iter().map(|(c, _)| hints(c)).collect(),
        columns: columns.iter().map(|(c, _)| hints(c)).collect(),
        lines,
        goal: None,
    })
}

/// The `#d` declarations among the lines before the rows: the palette and
/// the default block colour (`1:`), if declared.
fn palette(e: &Errors, preamble: &[&str]) -> Result<(Palette, Option<u8>), ParseError> {
    let mut background = ("white".to_string(), '.', None);
    // Each ink: its line, the character it is known by, name, value, and
    // whether it is the default colour.
    let mut inks: Vec<(usize, char, String, Option<[u8; 3]>, bool)> = Vec::new();
    let Some(start) = preamble.iter().position(|l| l.starts_with("#d")) else {
        return Ok((Palette::new("white", '.', None), None));
    };
    for (i, raw) in preamble.iter().enumerate().skip(start + 1) {
        let at = i + 1;
        let line = raw.trim();
        let mut chars = line.chars();
        let (Some(key), Some(':')) = (chars.next(), chars.next()) else {
            continue; // prose between declarations
        };
        let shown = chars.next().filter(|c| !c.is_whitespace());
        let value = chars.as_str().split_whitespace().next().unwrap_or("");
        if value.is_empty() {
            return Err(e.at(
                at,
                format!("colour '{key}' has no value (a name such as red, or #rrggbb)"),
            ));
        }
        let rgb = rgb_of(value);
        match key {
            // The background and the default colour never appear in clues:
            // they are known by the character they are shown as.
            '0' => background = (value.to_string(), shown.unwrap_or('.'), rgb),
            '1' => inks.push((at, shown.unwrap_or('#'), value.to_string(), rgb, true)),
            c if c.is_ascii_digit() || c == ',' => {
                return Err(e.at(
                    at,
                    format!("'{key}' cannot name a colour (digits other than 0 and 1, commas)"),
                ))
            }
            _ => inks.push((at, key, value.to_string(), rgb, false)),
        }
    }
    let mut palette = Palette::new(&background.0, background.1, background.2);
    let mut plain = None;
    for (at, ch, name, rgb, default) in inks {
        let i = palette.add(&name, ch, rgb).map_err(|m| e.at(at, m))?;
        if default {
            plain = Some(i);
        }
    }
    Ok((palette, plain))
}
