//! Colour nonograms: the puzzle, its two kinds of clue, and a software
//! solver ([`search`]) over cells that hold a set of possible colours.
//!
//! * **Blocks** (webpbn, Olšák `.g`, `.non`'s colour extension): each clue
//!   is a list of blocks, each with a length and a colour. Blocks of
//!   different colours may touch; blocks of one colour need a gap. Colour 0
//!   is the background.
//! * **Counts** (This Puzzle Does Not Exist): every cell has one of the
//!   colours; a line's hint for a colour is how many of its cells have it,
//!   and for more than one cell whether they are contiguous ("circled").
//!
//! Black-and-white puzzles never come here: they keep the bit-parallel
//! solver in [`crate::solver`].

pub mod line;
pub mod picture;
pub mod report;
pub mod search;
pub mod send;

/// A colour of the puzzle's palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Colour {
    /// Its name in the file ("red", "black"), or the digit for TPDNE.
    pub name: String,
    /// The character the file (and the picture) uses for it.
    pub ch: char,
    /// Its RGB value, when the file gives one or the name is a known colour.
    pub rgb: Option<[u8; 3]>,
}

/// Which clue rule the puzzle uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Blocks of a length and a colour; colour 0 is the background.
    Blocks,
    /// Per-colour cell counts with contiguity (TPDNE); no background.
    Counts,
}

/// One number of a clue: a block (`Blocks`), or a colour's count (`Counts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hint {
    pub len: usize,
    /// Index into the palette.
    pub colour: u8,
    /// `Counts` only: the cells are contiguous (meaningful when `len > 1`).
    pub circled: bool,
}

/// A puzzle's clues (`Blocks` rule) as the colour engine's model takes
/// them (`nonogram_hdl::colour::model`).
pub fn engine_clues(lines: &[Vec<Hint>]) -> Vec<Vec<nonogram_hdl::colour::line_logic::Block>> {
    let block = |h: &Hint| nonogram_hdl::colour::line_logic::Block {
        length: h.len,
        ink: h.colour,
    };
    lines.iter().map(|l| l.iter().map(block).collect()).collect()
}

/// Most colours in a palette, background included: a cell's possible
/// colours are a `u32` bit set.
pub const MAX_COLOURS: usize = 32;

/// A colour nonogram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourPuzzle {
    pub name: String,
    pub title: Option<String>,
    pub rule: Rule,
    /// The palette; with [`Rule::Blocks`], entry 0 is the background.
    pub colours: Vec<Colour>,
    pub rows: Vec<Vec<Hint>>,
    pub columns: Vec<Vec<Hint>>,
    /// Source line (1-based) of each row clue, then each column clue; 0 if unknown.
    pub lines: Vec<usize>,
    /// The intended solution (palette indices, row-major) and its line.
    pub goal: Option<(Vec<u8>, usize)>,
}

impl ColourPuzzle {
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The puzzle whose clues (under `rule`) the `h` × `w` picture `grid`
    /// (palette indices, row-major) has; the picture is its goal.
    pub fn from_picture(
        name: &str,
        rule: Rule,
        colours: Vec<Colour>,
        h: usize,
        w: usize,
        grid: &[u8],
    ) -> ColourPuzzle {
        let k = colours.len();
        let row = |r: usize| grid[r * w..(r + 1) * w].to_vec();
        let column = |c: usize| (0..h).map(|r| grid[r * w + c]).collect::<Vec<u8>>();
        ColourPuzzle {
            name: name.into(),
            title: None,
            rule,
            colours,
            rows: (0..h).map(|r| clue_of_line(rule, k, &row(r))).collect(),
            columns: (0..w).map(|c| clue_of_line(rule, k, &column(c))).collect(),
            lines: vec![0; h + w],
            goal: Some((grid.to_vec(), 0)),
        }
    }

    /// "row 3" / "column 1" (1-based) for line `index` (rows first).
    pub fn line_name(&self, index: usize) -> String {
        if index < self.height() {
            format!("row {}", index + 1)
        } else {
            format!("column {}", index - self.height() + 1)
        }
    }

    /// Line `index`'s clue and length (rows first, then columns).
    pub fn line(&self, index: usize) -> (&[Hint], usize) {
        if index < self.height() {
            (&self.rows[index], self.width())
        } else {
            (&self.columns[index - self.height()], self.height())
        }
    }

    /// The cells of line `index` in `grid` (row-major), as indices into it.
    pub fn cells_of(&self, index: usize) -> Vec<usize> {
        let (w, h) = (self.width(), self.height());
        if index < h {
            (0..w).map(|c| index * w + c).collect()
        } else {
            let c = index - h;
            (0..h).map(|r| r * w + c).collect()
        }
    }

    /// A clue as text: blocks as `3r 1b` (the colour's char after the
    /// length; none for a puzzle's only ink), counts as `3 (4)` (circled in
    /// brackets), `0` when empty.
    pub fn clue_text(&self, clue: &[Hint]) -> String {
        if clue.is_empty() {
            return "0".into();
        }
        let words: Vec<String> = clue
            .iter()
            .map(|h| match self.rule {
                Rule::Blocks => format!("{}{}", h.len, self.colours[h.colour as usize].ch),
                Rule::Counts if h.circled && h.len > 1 => format!("({})", h.len),
                Rule::Counts => h.len.to_string(),
            })
            .collect();
        words.join(" ")
    }

    /// Whether `cells` (palette indices, row-major) satisfies every clue;
    /// `Err` names the first line that does not.
    pub fn check_solution(&self, cells: &[u8]) -> Result<(), String> {
        let (w, h) = (self.width(), self.height());
        if cells.len() != w * h {
            return Err(format!("{} cells, expected {}", cells.len(), w * h));
        }
        if let Some(&bad) = cells.iter().find(|&&c| c as usize >= self.colours.len()) {
            return Err(format!("colour {bad} is not in the palette"));
        }
        for i in 0..w + h {
            let line: Vec<u8> = self.cells_of(i).iter().map(|&j| cells[j]).collect();
            let (clue, _) = self.line(i);
            let got = clue_of_line(self.rule, self.colours.len(), &line);
            if got != clue {
                return Err(format!(
                    "{} reads {} but its clue is {}",
                    self.line_name(i),
                    self.clue_text(&got),
                    self.clue_text(clue)
                ));
            }
        }
        Ok(())
    }

    /// Checks that every clue could fit its line on its own: blocks (with
    /// the gaps one colour needs) no longer than the line, counts adding up
    /// to it. `Err` holds the line index and the problem.
    pub fn check_fit(&self) -> Result<(), (usize, String)> {
        for i in 0..self.width() + self.height() {
            let (clue, length) = self.line(i);
            let need = match self.rule {
                Rule::Blocks => {
                    let gaps = clue.windows(2).filter(|p| p[0].colour == p[1].colour).count();
                    clue.iter().map(|h| h.len).sum::<usize>() + gaps
                }
                Rule::Counts => clue.iter().map(|h| h.len).sum(),
            };
            let fits = match self.rule {
                Rule::Blocks => need <= length,
                Rule::Counts => need == length,
            };
            if !fits {
                return Err((
                    i,
                    format!(
                        "{}: clue {} needs {need} cells but the line has {length}",
                        self.line_name(i),
                        self.clue_text(clue)
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl ColourPuzzle {
    /// The puzzle as `.non` with nonogram-db's `color` lines, and `answer`
    /// (palette indices) as its goal; block puzzles only.
    pub fn to_non(&self, answer: Option<&[u8]>) -> Result<String, String> {
        if self.rule != Rule::Blocks {
            return Err("a TPDNE puzzle has no .non form; write a picture with --png or --svg".into());
        }
        // Characters .non can carry: not digits, commas, quotes or `|`.
        let usable = |c: char| !c.is_whitespace() && !c.is_ascii_digit() && !",\"|#".contains(c);
        let mut chars: Vec<char> = vec!['0'];
        for c in &self.colours[1..] {
            let ch = if usable(c.ch) && !chars.contains(&c.ch) {
                c.ch
            } else {
                ('a'..='z')
                    .chain('A'..='Z')
                    .find(|x| !chars.contains(x) && !self.colours.iter().any(|c| c.ch == *x))
                    .ok_or("too many colours")?
            };
            chars.push(ch);
        }
        let mut s = String::new();
        if let Some(t) = &self.title {
            s.push_str(&format!("title \"{t}\"\n"));
        }
        s.push_str(&format!("width {}\nheight {}\n", self.width(), self.height()));
        for (i, c) in self.colours.iter().enumerate().skip(1) {
            let [r, g, b] = picture::shade(c.rgb, i);
            s.push_str(&format!("color {} #{r:02x}{g:02x}{b:02x}\n", chars[i]));
        }
        let clue = |l: &[Hint]| -> String {
            if l.is_empty() {
                return "0".into();
            }
            l.iter()
                .map(|h| format!("{}{}", h.len, chars[h.colour as usize]))
                .collect::<Vec<_>>()
                .join(",")
        };
        s.push_str("\nrows\n");
        self.rows.iter().for_each(|l| s.push_str(&(clue(l) + "\n")));
        s.push_str("\ncolumns\n");
        self.columns.iter().for_each(|l| s.push_str(&(clue(l) + "\n")));
        if let Some(answer) = answer {
            let goal: String = answer.iter().map(|&c| chars[c as usize]).collect();
            s.push_str(&format!("\ngoal \"{goal}\"\n"));
        }
        Ok(s)
    }
}

/// The clue a line of palette indices has under `rule`.
pub fn clue_of_line(rule: Rule, colours: usize, line: &[u8]) -> Vec<Hint> {
    match rule {
        Rule::Blocks => {
            let mut clue: Vec<Hint> = Vec::new();
            let mut previous = 0u8;
            for &c in line {
                if c != 0 {
                    match clue.last_mut() {
                        Some(h) if previous == c => h.len += 1,
                        _ => clue.push(Hint {
                            len: 1,
                            colour: c,
                            circled: false,
                        }),
                    }
                }
                previous = c;
            }
            clue
        }
        Rule::Counts => (0..colours as u8)
            .map(|c| {
                let len = line.iter().filter(|&&x| x == c).count();
                let first = line.iter().position(|&x| x == c);
                let last = line.iter().rposition(|&x| x == c);
                let circled = match (first, last) {
                    (Some(f), Some(l)) => len > 1 && l + 1 - f == len,
                    _ => false,
                };
                Hint {
                    len,
                    colour: c,
                    circled,
                }
            })
            .collect(),
    }
}

/// The RGB value of a colour name webpbn and the `.g` files use, or of a
/// `#rrggbb`/`rrggbb`/`#rgb` value.
pub fn rgb_of(text: &str) -> Option<[u8; 3]> {
    let t = text.trim().trim_start_matches('#');
    let hex = |s: &str| u8::from_str_radix(s, 16).ok();
    if t.len() == 6 && t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some([hex(&t[0..2])?, hex(&t[2..4])?, hex(&t[4..6])?]);
    }
    if t.len() == 3 && t.bytes().all(|b| b.is_ascii_hexdigit()) {
        let d = |i: usize| hex(&t[i..i + 1]).map(|v| v * 17);
        return Some([d(0)?, d(1)?, d(2)?]);
    }
    let named: &[(&str, [u8; 3])] = &[
        ("white", [255, 255, 255]),
        ("black", [0, 0, 0]),
        ("red", [255, 0, 0]),
        ("green", [0, 160, 0]),
        ("blue", [0, 0, 255]),
        ("yellow", [255, 255, 0]),
        ("orange", [255, 165, 0]),
        ("brown", [139, 69, 19]),
        ("purple", [128, 0, 128]),
        ("pink", [255, 182, 193]),
        ("gray", [128, 128, 128]),
        ("grey", [128, 128, 128]),
        ("cyan", [0, 255, 255]),
        ("magenta", [255, 0, 255]),
    ];
    let lower = text.trim().to_ascii_lowercase();
    named.iter().find(|(n, _)| *n == lower).map(|(_, rgb)| *rgb)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(len: usize, colour: u8) -> Hint {
        Hint {
            len,
            colour,
            circled: false,
        }
    }

    #[test]
    fn block_clues_split_on_a_colour_change() {
        assert_eq!(
            clue_of_line(Rule::Blocks, 3, &[0, 1, 1, 2, 0, 2, 2, 1]),
            vec![hint(2, 1), hint(1, 2), hint(2, 2), hint(1, 1)]
        );
    }

    #[test]
    fn count_clues_say_when_cells_are_contiguous() {
        let clue = clue_of_line(Rule::Counts, 3, &[0, 0, 1, 0, 2, 2]);
        assert_eq!(clue[0].len, 3);
        assert!(!clue[0].circled);
        assert_eq!(clue[1].len, 1);
        assert!(!clue[1].circled);
        assert!(clue[2].circled);
    }

    #[test]
    fn colour_values() {
        assert_eq!(rgb_of("#ff8000"), Some([255, 128, 0]));
        assert_eq!(rgb_of("f00"), Some([255, 0, 0]));
        assert_eq!(rgb_of("Black"), Some([0, 0, 0]));
        assert_eq!(rgb_of("chartreusy"), None);
    }
}
