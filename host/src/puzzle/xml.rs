//! webpbn's XML format, as webpbn.com exports it and pbnsolve and nonogrid
//! read it:
//!
//! ```xml
//! <puzzleset><puzzle type="grid" defaultcolor="black">
//!   <title>Four</title>
//!   <clues type="columns"><line><count>1</count></line><line/>…</clues>
//!   <clues type="rows">…</clues>
//!   <solution type="goal"><image>|.XX.|…</image></solution>
//! </puzzle></puzzleset>
//! ```
//!
//! Any number of colours: `<color name char>` declarations (the element's
//! text is the RGB value), `defaultcolor` (the colour of a count without
//! one, black unless said) and `backgroundcolor` (white unless said). A
//! puzzle whose counts all have one colour is black and white, whatever
//! the attributes say. The first `<puzzle>` of a set is read.

use super::colours::{goal_cells, hints, into_any, Palette};
use super::{AnyPuzzle, Errors, ParseError};
use crate::colour::{rgb_of, ColourPuzzle, Rule};
use roxmltree::{Document, Node};

pub fn parse(file: &str, text: &str) -> Result<AnyPuzzle, ParseError> {
    let e = Errors { file };
    let doc = Document::parse_with_options(
        text,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .map_err(|x| e.at(x.pos().row as usize, format!("not well-formed XML: {x}")))?;
    let line = |n: Node| doc.text_pos_at(n.range().start).row as usize;
    let puzzle = doc
        .descendants()
        .find(|n| n.has_tag_name("puzzle"))
        .ok_or_else(|| e.at(0, "no <puzzle> element: not a webpbn XML puzzle"))?;
    if let Some(kind) = puzzle.attribute("type").filter(|t| *t != "grid") {
        return Err(e.at(
            line(puzzle),
            format!("a '{kind}' puzzle: only grid puzzles are supported"),
        ));
    }
    let palette = palette(&e, puzzle, &line)?;
    let (palette, ink) = palette;
    let title = children(puzzle, "title")
        .first()
        .and_then(|t| t.text())
        .map(|t| t.trim().to_string());

    let mut sections = [None, None];
    for clues in children(puzzle, "clues") {
        let slot = match clues.attribute("type") {
            Some("rows") => 0,
            Some("columns") => 1,
            other => {
                return Err(e.at(
                    line(clues),
                    format!(
                        "<clues type=\"{}\">: expected rows or columns",
                        other.unwrap_or("")
                    ),
                ))
            }
        };
        if sections[slot].is_some() {
            return Err(e.at(line(clues), "a second <clues> of this type"));
        }
        let mut lines = Vec::new();
        for l in children(clues, "line") {
            let mut clue = Vec::new();
            for count in children(l, "count") {
                let colour = match count.attribute("color") {
                    None => ink,
                    Some(name) => palette.by_name(name).ok_or_else(|| {
                        e.at(
                            line(count),
                            format!("a count in colour '{name}', which no <color> declares"),
                        )
                    })?,
                };
                if colour == 0 {
                    return Err(e.at(line(count), "a count in the background colour"));
                }
                let text = count.text().unwrap_or("").trim();
                let n: usize = text.parse().ok().filter(|&n| n <= 1_000_000).ok_or_else(|| {
                    e.at(
                        line(count),
                        format!("<count>{text}</count> is not a block length"),
                    )
                })?;
                if n > 0 {
                    clue.push((n, colour));
                }
            }
            lines.push((hints(&clue), line(l)));
        }
        if lines.is_empty() {
            return Err(e.at(line(clues), "a <clues> without any <line>"));
        }
        sections[slot] = Some(lines);
    }
    let [Some(rows), Some(columns)] = sections else {
        return Err(e.at(
            line(puzzle),
            "the puzzle needs <clues type=\"rows\"> and <clues type=\"columns\">",
        ));
    };
    let (height, width) = (rows.len(), columns.len());
    let goal = match children(puzzle, "solution")
        .into_iter()
        .find(|s| s.attribute("type").unwrap_or("goal") == "goal")
    {
        None => None,
        Some(solution) => Some((
            goal_image(&e, &doc, solution, &palette, height, width)?,
            line(solution),
        )),
    };
    let lines = rows.iter().chain(&columns).map(|(_, at)| *at).collect();
    into_any(ColourPuzzle {
        name: file.to_string(),
        title,
        rule: Rule::Blocks,
        colours: palette.colours,
        rows: rows.into_iter().map(|(c, _)| c).collect(),
        columns: columns.into_iter().map(|(c, _)| c).collect(),
        lines,
        goal,
    })
}

/// The palette (background first, then the declared colours in order, then
/// the default colour if it was not declared) and the default colour's index.
fn palette(e: &Errors, puzzle: Node, line: &dyn Fn(Node) -> usize) -> Result<(Palette, u8), ParseError> {
    let paper = puzzle.attribute("backgroundcolor").unwrap_or("white");
    let ink = puzzle.attribute("defaultcolor").unwrap_or("black");
    let declared = children(puzzle, "color");
    let value = |n: &Node| n.text().and_then(rgb_of);
    let char_of = |n: &Node| n.attribute("char").and_then(|c| c.chars().next());
    let background = declared.iter().find(|c| c.attribute("name") == Some(paper));
    let mut palette = Palette::new(
        paper,
        background.and_then(char_of).unwrap_or('.'),
        background.and_then(value),
    );
    for c in &declared {
        let Some(name) = c.attribute("name") else {
            return Err(e.at(line(*c), "a <color> without a name"));
        };
        if name == paper {
            continue;
        }
        // Without a char, the name's first letter, or any letter still free.
        let free = |ch: &char| palette.by_char(*ch).is_none();
        let ch = char_of(c)
            .or_else(|| name.chars().next().filter(free))
            .or_else(|| ('a'..='z').chain('A'..='Z').find(free))
            .unwrap_or('?');
        palette.add(name, ch, value(c)).map_err(|m| e.at(line(*c), m))?;
    }
    let ink = match palette.by_name(ink) {
        Some(i) => i,
        None => {
            let ch = ['X', '#', '*']
                .into_iter()
                .find(|&c| palette.by_char(c).is_none())
                .unwrap_or('@');
            palette.add(ink, ch, None).map_err(|m| e.at(line(puzzle), m))?
        }
    };
    Ok((palette, ink))
}

/// The child elements of `parent` named `tag`.
fn children<'a, 'input>(parent: Node<'a, 'input>, tag: &str) -> Vec<Node<'a, 'input>> {
    parent.children().filter(|n| n.has_tag_name(tag)).collect()
}

/// The cells of a goal `<image>`: one row per line between `|` marks, in
/// the palette's characters.
fn goal_image(
    e: &Errors,
    doc: &Document,
    solution: Node,
    palette: &Palette,
    height: usize,
    width: usize,
) -> Result<Vec<u8>, ParseError> {
    let at = doc.text_pos_at(solution.range().start).row as usize;
    let image = solution
        .children()
        .find(|n| n.has_tag_name("image"))
        .and_then(|n| n.text())
        .ok_or_else(|| e.at(at, "a goal <solution> without an <image>"))?;
    let rows: Vec<&str> = image
        .lines()
        .map(|l| l.trim().trim_matches('|'))
        .filter(|l| !l.is_empty())
        .collect();
    let mut text = rows.concat();
    if palette.colours.len() == 2 {
        // Black and white: any character but the background's is the ink.
        let (paper, ink) = (palette.colours[0].ch, palette.colours[1].ch);
        text = text.chars().map(|c| if c == paper { c } else { ink }).collect();
    }
    let cells = goal_cells(&text, palette, &['|']).map_err(|ch| {
        e.at(
            at,
            format!("the goal image has '{ch}', which is no declared colour's char"),
        )
    })?;
    if rows.len() != height || cells.len() != height * width {
        return Err(e.at(
            at,
            format!(
                "the goal image is {} rows and {} cells; the clues make {width} x {height}",
                rows.len(),
                cells.len()
            ),
        ));
    }
    Ok(cells)
}
