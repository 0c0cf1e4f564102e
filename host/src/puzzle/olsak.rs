//! Olšák's `.g` format, as his `grid` solver, pbnsolve and nonogrid read it:
//!
//! ```text
//! Any text before the first line that starts with a colon is a comment.
//! #d
//!    0:   white     the background (optional: white)
//!    1:*  black     the colour of a block without a letter (optional)
//!    r:%  #ff0000   red: its letter in clues, its character on screen, its value, its name
//! : rows
//! 3r 1
//!                   (a blank line is a line with no blocks)
//! : columns
//! ...
//! : end             (everything after it is ignored)
//! ```
//!
//! The first colon line starts the rows, the second the columns, the third
//! ends the puzzle; the words after each colon are comments. A colour is
//! drawn as its character on screen (its letter when there is none) and
//! named by the words after its value (the value when there are none).
//! Triddlers and triangle blocks are not supported.

use super::colours::{colour_value, hints, into_any, parse_block_clue, Palette};
use super::{AnyPuzzle, Errors, ParseError};
use crate::colour::{ColourPuzzle, Rule};

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

    let (mut palette, letters, mut plain) = palette(&e, &lines[..rows_at])?;
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
                    Some(ch) => letters
                        .iter()
                        .find(|(c, _)| *c == ch)
                        .map(|(_, i)| *i)
                        .ok_or_else(|| {
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

/// The `#d` declarations among the lines before the rows: the palette,
/// the letter of each ink and its index, and the default block colour
/// (`1:`), if declared.
type Declared = (Palette, Vec<(char, u8)>, Option<u8>);

fn palette(e: &Errors, preamble: &[&str]) -> Result<Declared, ParseError> {
    let mut background = ("white".to_string(), '.', None);
    // Each ink: its line, its letter in clues ('1' for the default colour),
    // the character it is drawn as, name, value.
    let mut inks: Vec<(usize, char, char, String, Option<[u8; 3]>)> = Vec::new();
    let Some(start) = preamble.iter().position(|l| l.starts_with("#d")) else {
        return Ok((Palette::new("white", '.', None), Vec::new(), None));
    };
    for (i, raw) in preamble.iter().enumerate().skip(start + 1) {
        let at = i + 1;
        let line = raw.trim();
        let mut chars = line.chars();
        let (Some(key), Some(':')) = (chars.next(), chars.next()) else {
            continue; // prose between declarations
        };
        let shown = chars.next().filter(|c| !c.is_whitespace());
        let rest = chars.as_str().trim();
        let (value, name) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if value.is_empty() {
            return Err(e.at(
                at,
                format!("colour '{key}' has no value (a name such as red, or #rrggbb)"),
            ));
        }
        let rgb = colour_value(value).map_err(|m| e.at(at, format!("colour '{key}': {m}")))?;
        let name = match name.trim() {
            "" => value.to_string(),
            name => name.to_string(),
        };
        match key {
            '0' => background = (name, shown.unwrap_or('.'), rgb),
            '1' => inks.push((at, '1', shown.unwrap_or('#'), name, rgb)),
            c if c.is_ascii_digit() || c == ',' => {
                return Err(e.at(
                    at,
                    format!("'{key}' cannot name a colour (digits other than 0 and 1, commas)"),
                ))
            }
            _ => inks.push((at, key, shown.unwrap_or(key), name, rgb)),
        }
    }
    let mut palette = Palette::new(&background.0, background.1, background.2);
    let mut letters = Vec::new();
    let mut plain = None;
    for (at, letter, ch, name, rgb) in inks {
        let i = palette.add(&name, ch, rgb).map_err(|m| e.at(at, m))?;
        match letter {
            '1' => plain = Some(i),
            _ => letters.push((letter, i)),
        }
    }
    Ok((palette, letters, plain))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLSAK: &str = "Olsak style header\n#d\n0:   #FFFFFF   white\n1:*  #000000   black\nr:%  #FF0000   bright red\n: rows\n2\n1 2r\n1r\n: columns\n2\n1 2r\n1r\n: end\n";

    #[test]
    fn colours_are_drawn_as_their_character_and_named() {
        let r = parse("t.g", OLSAK);
        let Ok(AnyPuzzle::Colour(p)) = r else {
            panic!("not a colour puzzle: {r:?}");
        };
        let colours: Vec<(char, &str, Option<[u8; 3]>)> =
            p.colours.iter().map(|c| (c.ch, c.name.as_str(), c.rgb)).collect();
        assert_eq!(
            colours,
            [
                ('.', "white", Some([255, 255, 255])),
                ('*', "black", Some([0, 0, 0])),
                ('%', "bright red", Some([255, 0, 0])),
            ]
        );
        // Blocks use the letter: `2r` is the red one.
        assert_eq!(p.rows[1][1].colour, 2);
        // Without a name, the value names the colour; without a character,
        // the letter draws it.
        let text = OLSAK.replace("r:%  #FF0000   bright red", "r:  #FF0000");
        let r = parse("t.g", &text);
        let Ok(AnyPuzzle::Colour(p)) = r else {
            panic!("not a colour puzzle: {r:?}");
        };
        assert_eq!((p.colours[2].ch, p.colours[2].name.as_str()), ('r', "#FF0000"));
    }

    #[test]
    fn a_colour_value_that_is_not_hexadecimal_is_refused() {
        let e = parse("t.g", &OLSAK.replace("#FF0000", "#GG0000")).unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        assert!(e.message.contains("#GG0000"), "{e}");
    }
}
