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
//!
//! webpbn's exports carry HTML's named entities (`&copy;` in the
//! copyright line), which XML does not know: they are read as their
//! characters ([`html_entities`]). Other elements (`<source>`, `<id>`,
//! `<author>`, `<authorid>`, `<copyright>`, `<description>`, `<note>`, saved
//! `<solution>`s) are accepted and ignored.

use super::colours::{goal_cells, hints, into_any, Palette};
use super::{AnyPuzzle, Errors, ParseError};
use crate::colour::{rgb_of, ColourPuzzle, Rule};
use roxmltree::{Document, Node};

pub fn parse(file: &str, text: &str) -> Result<AnyPuzzle, ParseError> {
    let e = Errors { file };
    let text = &html_entities(text);
    let doc = Document::parse_with_options(
        text,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .map_err(|x| {
        // These two have no position: the file ends too early.
        let row = match x {
            roxmltree::Error::UnexpectedEndOfStream | roxmltree::Error::UnclosedRootNode => {
                text.lines().count().max(1)
            }
            _ => x.pos().row as usize,
        };
        e.at(row, format!("not well-formed XML: {x}"))
    })?;
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
    let (mut palette, mut ink) = palette(&e, puzzle, &line)?;
    let declared_ink = ink.is_some();
    let ink_name = puzzle.attribute("defaultcolor").unwrap_or("black");
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
                    None => match ink {
                        Some(i) => i,
                        None => {
                            let i = add_default(&mut palette, ink_name).map_err(|m| e.at(line(count), m))?;
                            ink = Some(i);
                            i
                        }
                    },
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
    // The ink was not declared (the file cannot know its character).
    let any_ink = !declared_ink && ink.is_some();
    let goal = match children(puzzle, "solution")
        .into_iter()
        .find(|s| s.attribute("type").unwrap_or("goal") == "goal")
    {
        None => None,
        Some(solution) => Some((
            goal_image(&e, &doc, solution, &palette, any_ink, height, width)?,
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

/// The palette (background first, then the declared colours in order) and
/// the default colour's index when it is declared. `defaultcolor` is the
/// colour of a count that names none (`backgroundcolor` is the background's):
/// an undeclared one joins the palette when a count uses it
/// ([`add_default`]), so an unused one is no colour of the puzzle.
fn palette(
    e: &Errors,
    puzzle: Node,
    line: &dyn Fn(Node) -> usize,
) -> Result<(Palette, Option<u8>), ParseError> {
    let paper = puzzle.attribute("backgroundcolor").unwrap_or("white");
    let ink = puzzle.attribute("defaultcolor").unwrap_or("black");
    let declared = children(puzzle, "color");
    let value = |n: &Node| n.text().and_then(rgb_of);
    for c in &declared {
        let text = c.text().unwrap_or("").trim();
        if !text.is_empty() && rgb_of(text).is_none() {
            return Err(e.at(
                line(*c),
                format!("<color>{text}</color> is not an RGB value (such as 'ff0000' or 'f00')"),
            ));
        }
    }
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
    let ink = palette.by_name(ink);
    Ok((palette, ink))
}

/// Adds the undeclared default colour `name`, drawn as `X` (webpbn's
/// character for black) or another character still free.
fn add_default(palette: &mut Palette, name: &str) -> Result<u8, String> {
    let ch = ['X', '#', '*']
        .into_iter()
        .find(|&c| palette.by_char(c).is_none())
        .unwrap_or('@');
    palette.add(name, ch, None)
}

/// The child elements of `parent` named `tag`.
fn children<'a, 'input>(parent: Node<'a, 'input>, tag: &str) -> Vec<Node<'a, 'input>> {
    parent.children().filter(|n| n.has_tag_name(tag)).collect()
}

/// The cells of a goal `<image>`: each row between `|` marks (on lines of
/// their own or not), in the palette's characters. `any_ink`: the ink was
/// not declared, so in black and white any character but the background's
/// is the ink.
fn goal_image(
    e: &Errors,
    doc: &Document,
    solution: Node,
    palette: &Palette,
    any_ink: bool,
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
        .split(['|', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut text = rows.concat();
    if any_ink && palette.colours.len() == 2 {
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

/// `text` with HTML's named entities, which XML does not know, made XML:
/// the Latin-1 ones (`&copy;`, `&eacute;`, `&nbsp;`, …) and a few common
/// others become numeric references, any other name becomes literal text
/// (`&amp;name;`). The five XML entities, numeric references and entities
/// the file's DTD declares are left alone; lines stay where they were.
fn html_entities(text: &str) -> String {
    let declared = |name: &str| {
        text.match_indices("<!ENTITY")
            .any(|(i, m)| text[i + m.len()..].split_whitespace().next() == Some(name))
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        let len = rest.bytes().take_while(u8::is_ascii_alphanumeric).count();
        let name = &rest[..len];
        let known = ["amp", "lt", "gt", "quot", "apos"].contains(&name);
        if len == 0 || !rest[len..].starts_with(';') || known || declared(name) {
            out.push('&');
            continue;
        }
        let code = LATIN1
            .iter()
            .position(|&n| n == name)
            .map(|i| i as u32 + 160)
            .or_else(|| OTHER.iter().find(|(n, _)| *n == name).map(|(_, c)| *c));
        match code {
            Some(c) => out.push_str(&format!("&#{c};")),
            None => out.push_str(&format!("&amp;{name};")),
        }
        rest = &rest[len + 1..];
    }
    out.push_str(rest);
    out
}

/// HTML's names of the characters 160 to 255.
const LATIN1: [&str; 96] = [
    "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf", "laquo",
    "not", "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot",
    "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest", "Agrave", "Aacute", "Acirc",
    "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute",
    "Icirc", "Iuml", "ETH", "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash",
    "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN", "szlig", "agrave", "aacute", "acirc", "atilde",
    "auml", "aring", "aelig", "ccedil", "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc",
    "iuml", "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide", "oslash", "ugrave",
    "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
];

/// Other HTML entities common in titles and notes.
const OTHER: [(&str, u32); 24] = [
    ("OElig", 338),
    ("oelig", 339),
    ("Scaron", 352),
    ("scaron", 353),
    ("Yuml", 376),
    ("ensp", 8194),
    ("emsp", 8195),
    ("thinsp", 8201),
    ("ndash", 8211),
    ("mdash", 8212),
    ("lsquo", 8216),
    ("rsquo", 8217),
    ("sbquo", 8218),
    ("ldquo", 8220),
    ("rdquo", 8221),
    ("bdquo", 8222),
    ("dagger", 8224),
    ("bull", 8226),
    ("hellip", 8230),
    ("prime", 8242),
    ("euro", 8364),
    ("trade", 8482),
    ("larr", 8592),
    ("rarr", 8594),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn colour(text: &str) -> ColourPuzzle {
        match parse("t.xml", text) {
            Ok(AnyPuzzle::Colour(p)) => p,
            other => panic!("not a colour puzzle: {other:?}"),
        }
    }

    fn mono(text: &str) -> crate::puzzle::Puzzle {
        match parse("t.xml", text) {
            Ok(AnyPuzzle::Mono(p)) => p,
            other => panic!("not a black-and-white puzzle: {other:?}"),
        }
    }

    /// webpbn's export of its puzzle #1, as the site writes it.
    const WEBPBN_1: &str = r#"<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">

<puzzleset>
<puzzle type="grid" defaultcolor="black">
<source>webpbn.com</source>
<id>#1</id>
<title>Demo Puzzle from Front Page</title>
<author>Jan Wolter</author>
<authorid>jan</authorid>
<copyright>&copy; Copyright 2004 by Jan Wolter</copyright>
<description>A stylized &eacute;lan of a puzzle&nbsp;&mdash; the site&apos;s first.</description>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns">
<line><count>2</count><count>1</count></line>
<line><count>2</count><count>1</count><count>3</count></line>
<line><count>7</count></line>
<line><count>1</count><count>3</count></line>
<line><count>2</count><count>1</count></line>
</clues>
<clues type="rows">
<line><count>2</count></line>
<line><count>2</count><count>1</count></line>
<line><count>1</count><count>1</count></line>
<line><count>3</count></line>
<line><count>1</count><count>1</count></line>
<line><count>1</count><count>1</count></line>
<line><count>2</count></line>
<line><count>1</count><count>1</count></line>
<line><count>1</count><count>2</count></line>
<line><count>2</count></line>
</clues>
<solution type="goal">
<image>
|.XX..|
|.XX.X|
|..X.X|
|.XXX.|
|X.X..|
|X.X..|
|..XX.|
|.X.X.|
|.X.XX|
|XX...|
</image>
</solution>
<note>Solvable by line logic.</note>
</puzzle>
</puzzleset>
"#;

    #[test]
    fn a_webpbn_export_with_html_entities_and_its_other_elements() {
        let p = mono(WEBPBN_1);
        assert_eq!(p.title.as_deref(), Some("Demo Puzzle from Front Page"));
        assert_eq!((p.width(), p.height()), (5, 10));
        let (goal, at) = p.goal.clone().unwrap();
        assert_eq!(at, 34);
        assert_eq!(p.check_solution(&goal), Ok(()));
    }

    #[test]
    fn entities_html_xml_numeric_and_declared() {
        let title = |t: &str| {
            let text = WEBPBN_1.replace("Demo Puzzle from Front Page", t);
            mono(&text).title.unwrap()
        };
        assert_eq!(title("Caf&eacute; &copy;&nbsp;&euro;"), "Café ©\u{a0}€");
        assert_eq!(title("&amp;&lt;&gt;&quot;&apos; &#233;&#xE9;"), "&<>\"' éé");
        // An unknown name is kept as text, not refused.
        assert_eq!(title("a &zorglub; b"), "a &zorglub; b");
        let declared = WEBPBN_1
            .replace(
                r#""https://webpbn.com/pbn-0.3.dtd">"#,
                r#""https://webpbn.com/pbn-0.3.dtd" [<!ENTITY copy "(C)">]>"#,
            )
            .replace("<title>Demo Puzzle from Front Page", "<title>&copy;");
        assert_eq!(mono(&declared).title.as_deref(), Some("(C)"));
        // A lone ampersand is still malformed XML, on its line.
        let e = parse("t.xml", &WEBPBN_1.replace("Demo Puzzle", "Demo & Puzzle")).unwrap_err();
        assert_eq!(e.line, 8, "{e}");
    }

    #[test]
    fn saved_solutions_backgroundcolor_and_a_goal_on_one_line() {
        let text = r##"<?xml version="1.0"?>
<puzzleset>
<puzzle type="grid" backgroundcolor="paper" defaultcolor="ink">
<title>Two inks</title>
<color name="paper" char="-">ffffe0</color>
<color name="ink" char="#">000080</color>
<color name="red" char="r">ff0000</color>
<clues type="columns">
<line><count>1</count><count color="red">1</count></line>
<line><count color="red">1</count></line>
</clues>
<clues type="rows">
<line><count>1</count><count color="red">1</count></line>
<line><count color="red">1</count></line>
</clues>
<solution type="saved"><image>|??||??|</image></solution>
<solution type="goal"><image>|#r||r-|</image></solution>
<solution type="solution"><image>|#r||r-|</image></solution>
</puzzle>
</puzzleset>
"##;
        let p = colour(text);
        let names: Vec<&str> = p.colours.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["paper", "ink", "red"]);
        assert_eq!(p.colours[0].rgb, Some([255, 255, 224]));
        assert_eq!(p.goal, Some((vec![1, 2, 2, 0], 17)));
    }

    #[test]
    fn a_truncated_file_is_refused_on_its_last_line() {
        let cut = &WEBPBN_1[..WEBPBN_1.find("<line><count>7").unwrap() + 10];
        let e = parse("t.xml", cut).unwrap_err();
        assert_eq!(e.line, cut.lines().count(), "{e}");
        let cut = &WEBPBN_1[..WEBPBN_1.find("</solution>").unwrap()];
        let e = parse("t.xml", cut).unwrap_err();
        assert_eq!(e.line, cut.lines().count(), "{e}");
    }

    /// Three declared inks and `defaultcolor="black"`, which no count uses.
    const THREE_INKS: &str = r#"<puzzleset><puzzle type="grid" defaultcolor="black">
<color name="white" char=".">fff</color>
<color name="a" char="a">f00</color>
<color name="b" char="b">0a0</color>
<color name="c" char="c">00f</color>
<clues type="columns"><line><count color="a">1</count></line><line><count color="b">1</count></line><line><count color="c">1</count></line></clues>
<clues type="rows"><line><count color="a">1</count><count color="b">1</count><count color="c">1</count></line></clues>
<solution type="goal"><image>|abc|</image></solution>
</puzzle></puzzleset>"#;

    #[test]
    fn an_unused_undeclared_default_colour_is_no_colour() {
        let p = colour(THREE_INKS);
        let chars: String = p.colours.iter().map(|c| c.ch).collect();
        assert_eq!(chars, ".abc");
        // Used, it is one (drawn as X).
        let used = THREE_INKS.replace(r#"<count color="b">"#, "<count>");
        let p = colour(&used.replace("|abc|", "|aXc|"));
        let chars: String = p.colours.iter().map(|c| c.ch).collect();
        assert_eq!(chars, ".abcX");
    }

    #[test]
    fn bad_colour_data_is_refused_on_its_line() {
        let e = parse("t.xml", &THREE_INKS.replace("|abc|", "|aQc|")).unwrap_err();
        assert_eq!(e.line, 8, "{e}");
        assert!(e.message.contains("'Q'"), "{e}");
        // Black and white with declared colours: the same.
        let e = parse("t.xml", &WEBPBN_1.replace("|.XX..|", "|.XQ..|")).unwrap_err();
        assert_eq!(e.line, 34, "{e}");
        let e = parse("t.xml", &THREE_INKS.replace(">0a0<", ">0q0<")).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("0q0"), "{e}");
        // Undeclared black and white: any character but the background's is ink.
        let text = r#"<puzzleset><puzzle>
<clues type="columns"><line><count>1</count></line><line/></clues>
<clues type="rows"><line><count>1</count></line></clues>
<solution><image>|#.|</image></solution>
</puzzle></puzzleset>"#;
        assert_eq!(mono(text).goal, Some((vec![true, false], 4)));
    }
}
