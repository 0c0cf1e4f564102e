//! What the colour formats share: a palette read from the file, clue
//! tokens such as `3r`, and the step that turns a file with one ink into
//! a black-and-white [`Puzzle`] (so that it keeps the fast solver and the
//! board).

use super::{AnyPuzzle, Errors, ParseError, Puzzle, MAX_HOST_LINE};
use crate::colour::{rgb_of, Colour, ColourPuzzle, Hint, Rule, MAX_COLOURS};

/// A palette under construction; entry 0 is the background.
pub(crate) struct Palette {
    pub(crate) colours: Vec<Colour>,
}

impl Palette {
    /// A palette with only the background, `name` drawn as `ch`.
    pub(crate) fn new(name: &str, ch: char, rgb: Option<[u8; 3]>) -> Palette {
        Palette {
            colours: vec![Colour {
                name: name.to_string(),
                ch,
                rgb: rgb.or_else(|| rgb_of(name)).or(Some([255, 255, 255])),
            }],
        }
    }

    pub(crate) fn by_char(&self, ch: char) -> Option<u8> {
        self.colours.iter().position(|c| c.ch == ch).map(|i| i as u8)
    }

    pub(crate) fn by_name(&self, name: &str) -> Option<u8> {
        self.colours.iter().position(|c| c.name == name).map(|i| i as u8)
    }

    /// Adds an ink; `Err` when the palette is full or `ch` is taken.
    pub(crate) fn add(&mut self, name: &str, ch: char, rgb: Option<[u8; 3]>) -> Result<u8, String> {
        if let Some(i) = self.by_char(ch) {
            return Err(format!(
                "colour '{name}' uses the character '{ch}', which '{}' has already",
                self.colours[i as usize].name
            ));
        }
        if self.colours.len() >= MAX_COLOURS {
            return Err(format!("more than {MAX_COLOURS} colours (background included)"));
        }
        self.colours.push(Colour {
            name: name.to_string(),
            ch,
            rgb: rgb.or_else(|| rgb_of(name)),
        });
        Ok(self.colours.len() as u8 - 1)
    }
}

/// A colour's value: `#rrggbb`, `#rgb`, or a name (`None` when it is one
/// nonohost does not know). A `#` value that is not hexadecimal is an error.
pub(crate) fn colour_value(value: &str) -> Result<Option<[u8; 3]>, String> {
    match rgb_of(value) {
        None if value.starts_with('#') => Err(format!(
            "'{value}' is not a colour value (#rrggbb, #rgb, or a name such as red)"
        )),
        rgb => Ok(rgb),
    }
}

/// A clue of blocks with optional colour characters: numbers separated
/// by commas and/or spaces, each followed by at most one colour character
/// that touches it (`3`, `3r`). `0` or `-` alone is the empty clue;
/// zero-length blocks are dropped.
pub(crate) fn parse_block_clue(
    text: &str,
    e: &Errors,
    line: usize,
) -> Result<Vec<(usize, Option<char>)>, ParseError> {
    let text = text.trim();
    if text.is_empty() || text == "-" {
        return Ok(Vec::new());
    }
    let mut clue = Vec::new();
    for token in text.split(|c: char| c == ',' || c.is_whitespace()) {
        if token.is_empty() {
            continue;
        }
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let (number, rest) = token.split_at(digits);
        let mut chars = rest.chars();
        let colour = chars.next();
        if digits == 0 || chars.next().is_some() || colour.is_some_and(|c| c.is_ascii_digit()) {
            return Err(e.at(
                line,
                format!("bad clue '{text}': '{token}' is not a block (a number, then at most one colour character)"),
            ));
        }
        let n: usize = number
            .parse()
            .ok()
            .filter(|&n: &usize| n <= 1_000_000)
            .ok_or_else(|| e.at(line, format!("bad clue '{text}': {number} is too large")))?;
        if n > 0 {
            clue.push((n, colour));
        }
    }
    if clue.len() > MAX_HOST_LINE {
        return Err(e.at(line, format!("bad clue: {} numbers is too many", clue.len())));
    }
    Ok(clue)
}

/// Turns clues of (length, colour index) into hints.
pub(crate) fn hints(clue: &[(usize, u8)]) -> Vec<Hint> {
    clue.iter()
        .map(|&(len, colour)| Hint {
            len,
            colour,
            circled: false,
        })
        .collect()
}

/// A black-and-white [`Puzzle`] when the clues use at most one ink (the
/// colour of every block is the same), else the colour puzzle. Checks that
/// each clue can fit its line.
pub(crate) fn into_any(p: ColourPuzzle) -> Result<AnyPuzzle, ParseError> {
    let e = Errors { file: &p.name };
    if let Err((i, message)) = p.check_fit() {
        return Err(e.at(p.lines.get(i).copied().unwrap_or(0), message));
    }
    let mut inks: Vec<u8> = p
        .rows
        .iter()
        .chain(&p.columns)
        .flatten()
        .map(|h| h.colour)
        .collect();
    inks.sort_unstable();
    inks.dedup();
    if p.rule == Rule::Blocks && inks.len() <= 1 {
        let lengths = |lines: &[Vec<Hint>]| -> Vec<Vec<usize>> {
            lines.iter().map(|l| l.iter().map(|h| h.len).collect()).collect()
        };
        let goal = p
            .goal
            .map(|(cells, at)| (cells.iter().map(|&c| c != 0).collect(), at));
        return Ok(AnyPuzzle::Mono(Puzzle {
            name: p.name,
            title: p.title,
            rows: lengths(&p.rows),
            columns: lengths(&p.columns),
            lines: p.lines,
            picture: None,
            goal,
        }));
    }
    Ok(AnyPuzzle::Colour(p))
}

/// The cells of a goal written in the palette's characters; other
/// characters (spaces, `|` row marks, quotes) are skipped. `Err` holds a
/// character that is not in the palette.
pub(crate) fn goal_cells(text: &str, palette: &Palette, skip: &[char]) -> Result<Vec<u8>, char> {
    let mut cells = Vec::new();
    for ch in text.chars() {
        if ch.is_whitespace() || skip.contains(&ch) {
            continue;
        }
        match palette.by_char(ch) {
            Some(i) => cells.push(i),
            None => return Err(ch),
        }
    }
    Ok(cells)
}
