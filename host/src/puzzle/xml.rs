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
//! Black-and-white puzzles only: a puzzle with a second ink colour, or a
//! `<count>` in a colour other than the default, is refused as a colour
//! puzzle. The first `<puzzle>` of a set is read.

use super::{Errors, ParseError, Puzzle};
use roxmltree::{Document, Node};

pub fn parse(file: &str, text: &str) -> Result<Puzzle, ParseError> {
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
    let ink = puzzle.attribute("defaultcolor").unwrap_or("black");
    let paper = puzzle.attribute("backgroundcolor").unwrap_or("white");
    // The colours: only the background and one ink.
    let colours = children(puzzle, "color");
    let inks: Vec<&str> = colours
        .iter()
        .filter_map(|c| c.attribute("name"))
        .filter(|name| *name != paper)
        .collect();
    if inks.len() > 1 || inks.iter().any(|name| *name != ink) {
        return Err(e.at(
            line(puzzle),
            format!(
                "a colour puzzle ({}): colour puzzles are not supported",
                inks.join(", ")
            ),
        ));
    }
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
                if let Some(colour) = count.attribute("color").filter(|c| *c != ink) {
                    return Err(e.at(
                        line(count),
                        format!("a count in colour '{colour}': colour puzzles are not supported"),
                    ));
                }
                let text = count.text().unwrap_or("").trim();
                let n: usize = text.parse().ok().filter(|&n| n <= 1_000_000).ok_or_else(|| {
                    e.at(
                        line(count),
                        format!("<count>{text}</count> is not a block length"),
                    )
                })?;
                if n > 0 {
                    clue.push(n);
                }
            }
            lines.push((clue, line(l)));
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
            goal_image(&e, &doc, solution, &colours, paper, height, width)?,
            line(solution),
        )),
    };
    let lines = rows.iter().chain(&columns).map(|(_, at)| *at).collect();
    Ok(Puzzle {
        name: file.to_string(),
        title,
        rows: rows.into_iter().map(|(c, _)| c).collect(),
        columns: columns.into_iter().map(|(c, _)| c).collect(),
        lines,
        picture: None,
        goal,
    })
}

/// The child elements of `parent` named `tag`.
fn children<'a, 'input>(parent: Node<'a, 'input>, tag: &str) -> Vec<Node<'a, 'input>> {
    parent.children().filter(|n| n.has_tag_name(tag)).collect()
}

/// The cells of a goal `<image>`: one row per line between `|` marks, the
/// background colour's character (`.` unless the file says otherwise) empty,
/// any other character filled.
fn goal_image(
    e: &Errors,
    doc: &Document,
    solution: Node,
    colours: &[Node],
    paper: &str,
    height: usize,
    width: usize,
) -> Result<Vec<bool>, ParseError> {
    let at = doc.text_pos_at(solution.range().start).row as usize;
    let image = solution
        .children()
        .find(|n| n.has_tag_name("image"))
        .and_then(|n| n.text())
        .ok_or_else(|| e.at(at, "a goal <solution> without an <image>"))?;
    let blank = colours
        .iter()
        .find(|c| c.attribute("name") == Some(paper))
        .and_then(|c| c.attribute("char"))
        .and_then(|c| c.chars().next())
        .unwrap_or('.');
    let rows: Vec<&str> = image
        .lines()
        .map(|l| l.trim().trim_matches('|'))
        .filter(|l| !l.is_empty())
        .collect();
    let cells: Vec<bool> = rows.iter().flat_map(|r| r.chars()).map(|c| c != blank).collect();
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
