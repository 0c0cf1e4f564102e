//! Codes of This Puzzle Does Not Exist (TPDNE): one puzzle per line, a
//! 68-character base64 string (standard or URL-safe alphabet, the final
//! `=` optional). Blank lines and lines starting with `#` are skipped.
//!
//! A code decodes to 50 bytes: four RGB colours (12 bytes), then the
//! picture at 2 bits a cell, four cells a byte, high bits first; cell i is
//! at column i mod 10, row i div 10 of a 10 × 15 grid. The clues are the
//! picture's: each line's count of every colour, circled when those cells
//! are contiguous (see [`crate::colour::Rule::Counts`]).

use super::{AnyPuzzle, Errors, ParseError};
use crate::colour::{clue_of_line, Colour, ColourPuzzle, Rule};
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;

pub const WIDTH: usize = 10;
pub const HEIGHT: usize = 15;
const COLOURS: usize = 4;
const BYTES: usize = 3 * COLOURS + (WIDTH * HEIGHT).div_ceil(4);

/// Whether `text` looks like a file of codes: every line that is not
/// blank or a comment is one 67- or 68-character base64 word.
pub fn looks_like(text: &str) -> bool {
    let mut words = codes(text).peekable();
    words.peek().is_some() && words.all(|(_, w)| is_code(w))
}

fn is_code(word: &str) -> bool {
    (67..=68).contains(&word.len())
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/-_=".contains(&b))
}

/// The lines that hold codes, with their 1-based numbers.
fn codes(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

pub fn parse(file: &str, text: &str) -> Result<Vec<AnyPuzzle>, ParseError> {
    let e = Errors { file };
    let all: Vec<(usize, &str)> = codes(text).collect();
    if all.is_empty() {
        return Err(e.at(0, "no TPDNE code in the file"));
    }
    let many = all.len() > 1;
    all.iter()
        .enumerate()
        .map(|(k, &(at, word))| {
            let mut p = decode(word).map_err(|m| e.at(at, m))?;
            p.name = file.to_string();
            p.lines = vec![at; WIDTH + HEIGHT];
            if let Some((_, line)) = &mut p.goal {
                *line = at;
            }
            if many {
                p.title = Some(format!("code {} (line {at})", k + 1));
            }
            Ok(AnyPuzzle::Colour(p))
        })
        .collect()
}

/// The puzzle a code stands for, its picture as the goal.
pub fn decode(word: &str) -> Result<ColourPuzzle, String> {
    if !is_code(word) {
        return Err(format!(
            "'{}' is not a TPDNE code (68 base64 characters)",
            word.chars().take(80).collect::<String>()
        ));
    }
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true);
    let url_safe = word.contains(['-', '_']);
    let alphabet = if url_safe {
        &base64::alphabet::URL_SAFE
    } else {
        &base64::alphabet::STANDARD
    };
    let bytes = GeneralPurpose::new(alphabet, config)
        .decode(word)
        .map_err(|x| format!("not a TPDNE code: {x}"))?;
    if bytes.len() != BYTES {
        return Err(format!(
            "a TPDNE code holds {BYTES} bytes, this one {}",
            bytes.len()
        ));
    }
    let colours = (0..COLOURS)
        .map(|c| Colour {
            name: c.to_string(),
            ch: char::from(b'0' + c as u8),
            rgb: Some([bytes[3 * c], bytes[3 * c + 1], bytes[3 * c + 2]]),
        })
        .collect();
    let picture: Vec<u8> = (0..WIDTH * HEIGHT)
        .map(|i| (bytes[3 * COLOURS + i / 4] >> (6 - 2 * (i % 4))) & 3)
        .collect();
    let row = |r: usize| picture[r * WIDTH..(r + 1) * WIDTH].to_vec();
    let column = |c: usize| (0..HEIGHT).map(|r| picture[r * WIDTH + c]).collect::<Vec<u8>>();
    Ok(ColourPuzzle {
        name: String::new(),
        title: None,
        rule: Rule::Counts,
        colours,
        rows: (0..HEIGHT)
            .map(|r| clue_of_line(Rule::Counts, COLOURS, &row(r)))
            .collect(),
        columns: (0..WIDTH)
            .map(|c| clue_of_line(Rule::Counts, COLOURS, &column(c)))
            .collect(),
        lines: vec![0; WIDTH + HEIGHT],
        goal: Some((picture, 0)),
    })
}
