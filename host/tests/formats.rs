//! Puzzle formats: every format, malformed files (file, line, problem),
//! the examples, and property tests that no input panics.

use nonohost::puzzle::{detect, Format, ParseError, Puzzle};
use proptest::prelude::*;
use std::path::PathBuf;

fn parse(name: &str, text: &str) -> Result<Puzzle, ParseError> {
    Puzzle::parse(name, text, None)
}

fn err(name: &str, text: &str) -> ParseError {
    match parse(name, text) {
        Ok(p) => panic!("{name} parsed: {p:?}"),
        Err(e) => e,
    }
}

fn four() -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    (
        vec![vec![2], vec![1, 1], vec![3], vec![1]],
        vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
    )
}

#[test]
fn board_txt() {
    let text = "# a comment\nrows:\n2\n1 1   # trailing comment\n3\n1\n\ncolumns\n1\n1,1\n1, 1\n3\n";
    assert_eq!(detect("board.txt", text), Format::Board);
    let p = parse("board.txt", text).unwrap();
    assert_eq!((p.rows.clone(), p.columns.clone()), four());
    assert_eq!(p.lines, vec![3, 4, 5, 6, 9, 10, 11, 12]);
    // Empty lines: 0 or -.
    let p = parse("b.txt", "ROWS:\n0\n-\ncolumns:\n0\n").unwrap();
    assert_eq!(p.rows, vec![Vec::<usize>::new(), vec![]]);
    assert_eq!(p.columns, vec![Vec::<usize>::new()]);
    // Round trip.
    let again = parse("again.txt", &p.to_board_txt()).unwrap();
    assert_eq!((again.rows, again.columns), (p.rows, p.columns));
}

#[test]
fn board_txt_errors_name_file_line_and_problem() {
    let e = err("b.txt", "rows:\n2\nx3\ncolumns:\n1\n");
    assert_eq!((e.file.as_str(), e.line), ("b.txt", 3));
    assert!(e.message.contains("'x3' is not a number"), "{e}");
    assert_eq!(e.to_string(), format!("b.txt:3: {}", e.message));

    let e = err("b.txt", "rows:\n2\ncolumns:\n1\nrows:\n1\n");
    assert_eq!(e.line, 5);
    assert!(e.message.contains("second 'rows'"), "{e}");

    let e = err("b.txt", "rows:\n1\n");
    assert_eq!(e.line, 0);
    assert!(e.message.contains("no 'columns:' section"), "{e}");

    let e = err("b.txt", "columns:\nrows:\n1\n");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("'columns:' section is empty"), "{e}");

    // A clue that cannot fit its line: named with its line.
    let e = err("b.txt", "rows:\n1\n2 2\ncolumns:\n1\n1\n1\n");
    assert_eq!(e.line, 3);
    assert!(
        e.message
            .contains("row 2: clue 2,2 needs 5 cells but the line has 3"),
        "{e}"
    );
    let e = err("b.txt", "rows:\n1\n1\ncolumns:\n0\n3\n");
    assert_eq!(e.line, 6);
    assert!(
        e.message
            .contains("column 2: clue 3 needs 3 cells but the line has 2"),
        "{e}"
    );

    let e = err("b.txt", "rows:\n3b\ncolumns:\n1\n");
    assert!(e.message.contains("board.txt has no colours"), "{e}");
}

#[test]
fn non_format() {
    let text = "catalogue \"webpbn #1\"\ntitle \"Four\"\nby \"someone\"\ncopyright \"&copy; 2004\"\nlicense CC-BY-3.0\n\
                width 4\nheight 4\n\nrows\n2\n1,1\n3\n1\n\ncolumns\n1\n1,1\n1,1\n3\n\ngoal \"0110100101110001\"\n";
    assert_eq!(detect("x.txt", text), Format::Non);
    let p = parse("four.non", text).unwrap();
    assert_eq!((p.rows.clone(), p.columns.clone()), four());
    assert_eq!(p.title.as_deref(), Some("Four"));
    assert_eq!(p.lines, vec![10, 11, 12, 13, 16, 17, 18, 19]);

    // Any order; the size after the sections; `rows h`/`columns w` as size.
    let text = "columns\n1\n1,1\n1,1\n3\nrows\n2\n1,1\n3\n1\ncolumns 4\nrows 4\n";
    let p = parse("late.non", text).unwrap();
    assert_eq!((p.rows, p.columns), four());

    // Blank lines as empty clues when the others are too few.
    let text = "width 2\nheight 3\nrows\n1\n\n2\ncolumns\n1,1\n2\n";
    let p = parse("blank.non", text).unwrap();
    assert_eq!(p.rows, vec![vec![1], vec![], vec![2]]);
    // Blank lines ignored when the others are exactly the count.
    let text = "width 2\nheight 2\nrows\n\n1\n\n1\n\ncolumns\n\n1\n1\n";
    assert!(parse("spaced.non", text).is_ok());
    // Round trip.
    let p = parse("four.non", &Puzzle::from_clues("x", four().0, four().1).to_non()).unwrap();
    assert_eq!((p.rows, p.columns), four());
}

#[test]
fn non_errors_name_file_line_and_problem() {
    let e = err("a.non", "height 2\nrows\n1\n1\ncolumns\n1\n");
    assert_eq!((e.file.as_str(), e.line), ("a.non", 0));
    assert!(e.message.contains("no 'width'"), "{e}");

    let e = err("a.non", "width x\nheight 2\n");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("width: expected a number"), "{e}");

    let e = err("a.non", "width 2\nheight 2\nrows\n1\n1\n1\ncolumns\n1\n1\n");
    assert_eq!(e.line, 6);
    assert!(e.message.contains("more row clues than the height (2)"), "{e}");

    let e = err("a.non", "width 2\nheight 3\nrows\n1\n1\ncolumns\n1\n1\n");
    assert_eq!(e.line, 6);
    assert!(e.message.contains("expected 3"), "{e}");

    let e = err("a.non", "width 2\nheight 2\nwidth 3\n");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("contradicts"), "{e}");

    let e = err("a.non", "width 2\nheight 1\n1,1\nrows\n1\ncolumns\n1\n1\n");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("outside a rows or columns section"), "{e}");

    let e = err("a.non", "width 2\nheight 1\nrows\n1,2\ncolumns\n1\n1\n");
    assert_eq!(e.line, 4);
    assert!(e.message.contains("row 1: clue 1,2 needs 4 cells"), "{e}");

    let e = err("a.non", "width 0\nheight 1\n");
    assert!(e.message.contains("between 1 and 1024"), "{e}");
}

#[test]
fn pictures() {
    let text = "\n.##.\n#..#\n.###\n...#\n\n";
    assert_eq!(detect("pic.txt", text), Format::Picture);
    let p = parse("pic.txt", text).unwrap();
    assert_eq!((p.rows.clone(), p.columns.clone()), four());
    assert_eq!(p.picture.as_ref().unwrap().iter().filter(|&&b| b).count(), 8);
    // Other characters and spaces between cells.
    let p = parse("pic.txt", "0 X x 0\n1 - _ *\n0 1 1 1\n. . . #\n").unwrap();
    assert_eq!((p.rows, p.columns), four());
}

#[test]
fn picture_errors_name_file_line_and_problem() {
    let e = err("p.txt", ".##.\n#..#\n.##\n");
    assert_eq!((e.file.as_str(), e.line), ("p.txt", 3));
    assert!(e.message.contains("3 cells, the first row has 4"), "{e}");
    let e = err("p.txt", ".#\n\n#.\n");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("blank line inside"), "{e}");
    let e = err("p.txt", ".#\n#?\n");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'?' is not a picture cell"), "{e}");
    let e = err("p.txt", "\n  \n");
    assert!(e.message.contains("empty"), "{e}");
    let e = err("p.txt", &"#".repeat(1025));
    assert!(e.message.contains("longer than 1024"), "{e}");
}

#[test]
fn missing_file_and_bad_utf8() {
    let e = Puzzle::load(std::path::Path::new("/no/such/puzzle.txt")).unwrap_err();
    assert_eq!(e.file, "/no/such/puzzle.txt");
    assert!(e.message.contains("cannot read"), "{e}");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("latin1.txt");
    std::fs::write(&path, b"rows:\n1\ncolumns:\n\xe91\n").unwrap();
    let e = Puzzle::load(&path).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("UTF-8"), "{e}");
}

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// Every example parses, its clues fit, and its expected outcome holds.
#[test]
fn the_examples() {
    let expect = [
        ("4x4.txt", Format::Board, 1),
        ("d5x5.txt", Format::Board, 1),
        ("heart6x7.txt", Format::Board, 1),
        ("x11x11.txt", Format::Board, 1),
        ("random15x15.txt", Format::Board, 1),
        ("duck.non", Format::Non, 1),
        ("four.xml", Format::Xml, 1),
        ("smiley.txt", Format::Picture, 1),
        ("several.txt", Format::Board, 2),
        ("nosolution.txt", Format::Board, 0),
    ];
    let mut seen = 0;
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            continue; // colour/: see tests/colour.rs
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let (_, format, solutions) = expect
            .iter()
            .find(|(n, _, _)| *n == name)
            .unwrap_or_else(|| panic!("unexpected example {name}"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(detect(&name, &text), *format, "{name}");
        let p = Puzzle::load(&path).unwrap_or_else(|e| panic!("{e}"));
        p.check().unwrap();
        assert!(
            nonohost::wire::check_capacity(&p).is_ok(),
            "{name} fits the board"
        );
        let n = nonohost::solver::count_solutions(&p.rows, &p.columns, 2);
        assert_eq!(n, *solutions, "{name}");
        seen += 1;
    }
    assert_eq!(seen, expect.len());
    // The original project's boards, as the brief gives them.
    let heart = Puzzle::load(&examples().join("heart6x7.txt")).unwrap();
    assert_eq!(
        heart.rows,
        vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]]
    );
    assert_eq!(
        heart.columns,
        vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]]
    );
    let d = Puzzle::load(&examples().join("d5x5.txt")).unwrap();
    assert_eq!(d.columns, vec![vec![5], vec![1, 1], vec![1, 1], vec![3], vec![]]);
    let x = Puzzle::load(&examples().join("x11x11.txt")).unwrap();
    assert_eq!(x.rows, x.columns);
    assert_eq!(x.rows[1], vec![1, 7, 1]);
    // The 15x15 is solved by line logic alone.
    let r = Puzzle::load(&examples().join("random15x15.txt")).unwrap();
    assert_eq!(
        nonohost::solver::line_solve(&r.rows, &r.columns).outcome,
        nonohost::solver::LineOutcome::Solved
    );
    // The .non's goal is its solution.
    let duck = Puzzle::load(&examples().join("duck.non")).unwrap();
    let goal = "0011000001111000110110000111100100111111001111100001110000100100";
    duck.check_solution(&goal.bytes().map(|b| b == b'1').collect::<Vec<_>>())
        .unwrap();
}

fn alphabet_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("rows".to_string()),
        Just("rows:".to_string()),
        Just("columns".to_string()),
        Just("columns:".to_string()),
        Just("width ".to_string()),
        Just("height ".to_string()),
        Just("title \"t\"".to_string()),
        Just("#".to_string()),
        Just(".".to_string()),
        Just("-".to_string()),
        Just(",".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("\n".to_string()),
        (0usize..70).prop_map(|n| n.to_string()),
        "[a-z0-9#.,: \\n-]{0,6}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>(), ext in prop_oneof![Just("a.non"), Just("a.txt")]) {
        for format in [None, Some(Format::Non), Some(Format::Board), Some(Format::Picture)] {
            let _ = Puzzle::parse(ext, &text, format);
        }
    }

    #[test]
    fn near_miss_files_never_panic_and_parse_consistently(text in alphabet_text(), ext in prop_oneof![Just("a.non"), Just("a.txt")]) {
        for format in [None, Some(Format::Non), Some(Format::Board), Some(Format::Picture)] {
            match Puzzle::parse(ext, &text, format) {
                Ok(p) => {
                    prop_assert!(p.check().is_ok());
                    prop_assert_eq!(p.lines.len(), p.height() + p.width());
                    // Whatever parses, round-trips through both writers.
                    let b = Puzzle::parse("rt.txt", &p.to_board_txt(), None).unwrap();
                    prop_assert_eq!((&b.rows, &b.columns), (&p.rows, &p.columns));
                    let n = Puzzle::parse("rt.non", &p.to_non(), None).unwrap();
                    prop_assert_eq!((&n.rows, &n.columns), (&p.rows, &p.columns));
                    let _ = nonohost::wire::check_capacity(&p);
                    let _ = nonohost::wire::wire_bytes(&p, true);
                }
                Err(e) => {
                    prop_assert!(!e.message.is_empty());
                    prop_assert!(e.to_string().starts_with(ext));
                }
            }
        }
    }

    #[test]
    fn pictures_round_trip(h in 1usize..8, w in 1usize..8, bits in any::<u64>()) {
        let cells: Vec<bool> = (0..h * w).map(|i| bits >> i & 1 == 1).collect();
        let text: String = cells
            .chunks(w)
            .map(|r| r.iter().map(|&b| if b { '#' } else { '.' }).collect::<String>() + "\n")
            .collect();
        let p = Puzzle::parse("p.txt", &text, None).unwrap();
        prop_assert_eq!(p.height(), h);
        prop_assert_eq!(p.width(), w);
        prop_assert!(p.check_solution(&cells).is_ok());
    }
}

/// Files from other editors: a byte-order mark, CRLF or CR line ends, tabs.
#[test]
fn byte_order_marks_line_ends_and_tabs() {
    let plain = "rows:\n2\n1 1\n3\n1\ncolumns:\n1\n1 1\n1,1\n3\n";
    let expected = four();
    for text in [
        format!("\u{feff}{plain}"),
        plain.replace('\n', "\r\n"),
        plain.replace('\n', "\r"),
        plain.replace(' ', "\t"),
        format!("\u{feff}{}", plain.replace(' ', " \t ").replace('\n', "\r\n")),
    ] {
        let p = parse("board.txt", &text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!((p.rows, p.columns), expected.clone(), "{text:?}");
    }
    let non = "\u{feff}width 2\r\nheight 1\r\nrows\r\n2\r\ncolumns\r\n1\r\n1\r\n";
    let p = parse("p.non", non).unwrap();
    assert_eq!((p.rows, p.columns), (vec![vec![2]], vec![vec![1], vec![1]]));
    let picture = "\u{feff}#.\r\n.#\r\n";
    assert_eq!(parse("p.txt", picture).unwrap().rows, vec![vec![1], vec![1]]);
    let xml = format!(
        "\u{feff}{}",
        FOUR_XML.replace('\n', "\r\n").replace("<count>", "\t<count>")
    );
    assert_eq!((parse("p.xml", &xml).unwrap().rows), expected.0);
}

const FOUR_XML: &str = r#"<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<title>Four</title>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns">
<line><count>1</count></line>
<line><count>1</count><count>1</count></line>
<line><count color="black">1</count><count>1</count></line>
<line><count>3</count></line>
</clues>
<clues type="rows">
<line><count>2</count></line>
<line><count>1</count><count>1</count></line>
<line><count>3</count></line>
<line><count>1</count></line>
</clues>
<solution type="goal">
<image>
|.XX.|
|X..X|
|.XXX|
|...X|
</image>
</solution>
</puzzle>
</puzzleset>
"#;

#[test]
fn webpbn_xml() {
    assert_eq!(detect("x.txt", FOUR_XML), Format::Xml);
    let p = parse("four.xml", FOUR_XML).unwrap();
    assert_eq!((p.rows.clone(), p.columns.clone()), four());
    assert_eq!(p.title.as_deref(), Some("Four"));
    assert_eq!(p.lines, vec![15, 16, 17, 18, 9, 10, 11, 12]);
    let (goal, at) = p.goal.clone().unwrap();
    assert_eq!(at, 20);
    assert_eq!(p.check_solution(&goal), Ok(()));
    // Empty lines written <line/>, no colours declared at all.
    let text = "<puzzleset><puzzle><clues type=\"rows\"><line/><line><count>1</count></line></clues>\
                <clues type=\"columns\"><line><count>1</count></line></clues></puzzle></puzzleset>";
    let p = parse("empty.xml", text).unwrap();
    assert_eq!(p.rows, vec![vec![], vec![1]]);
    assert!(p.goal.is_none());
}

#[test]
fn webpbn_xml_errors_name_file_line_and_problem() {
    // A second ink makes a colour puzzle, which the board's loader refuses.
    let colour = FOUR_XML
        .replace(
            "<count>3</count></line>\n</clues>",
            "<count color=\"red\">3</count></line>\n</clues>",
        )
        .replace(
            "<color name=\"black\" char=\"X\">000</color>",
            "<color name=\"black\" char=\"X\">000</color>\n<color name=\"red\" char=\"r\">f00</color>",
        );
    let e = err("c.xml", &colour);
    assert_eq!(e.file.as_str(), "c.xml");
    assert!(
        e.message.contains("a colour puzzle (2 colours: black, red)"),
        "{e}"
    );
    // A count in a colour nobody declared.
    let e = err(
        "c.xml",
        &FOUR_XML.replace(
            "<count>3</count></line>\n</clues>",
            "<count color=\"red\">3</count></line>\n</clues>",
        ),
    );
    assert_eq!(e.line, 12);
    assert!(e.message.contains("colour 'red'"), "{e}");
    let e = err(
        "t.xml",
        &FOUR_XML.replace("<count>2</count>", "<count>two</count>"),
    );
    assert_eq!(e.line, 15);
    assert!(e.message.contains("not a block length"), "{e}");
    let e = err(
        "t.xml",
        &FOUR_XML.replace(
            "</clues>\n<clues type=\"rows\">",
            "</clue>\n<clues type=\"rows\">",
        ),
    );
    assert_eq!(e.line, 13);
    assert!(e.message.contains("not well-formed XML"), "{e}");
    let e = err("t.xml", &FOUR_XML.replace("|...X|", "|..X|"));
    assert_eq!(e.line, 20);
    assert!(e.message.contains("goal image"), "{e}");
    let e = err("t.xml", "<puzzleset></puzzleset>");
    assert!(e.message.contains("no <puzzle>"), "{e}");
}

#[test]
fn non_goal_on_one_line_or_as_a_grid() {
    let base = "width 4\nheight 4\nrows\n2\n1,1\n3\n1\ncolumns\n1\n1,1\n1,1\n3\n";
    let want: Vec<bool> = "0110100101110001".chars().map(|c| c == '1').collect();
    for goal in [
        "goal \"0110100101110001\"\n",
        "goal 0110100101110001\n",
        "goal\n.##.\n#..#\n.###\n...#\n",
        "goal\n\"0110\n1001\n0111\n0001\"\n",
    ] {
        let p = parse("g.non", &format!("{base}{goal}")).unwrap();
        assert_eq!(p.goal, Some((want.clone(), 13)), "{goal}");
    }
    // A goal grid, then more keywords.
    let p = parse("g.non", &format!("goal\n.##.\n#..#\n.###\n...#\n{base}")).unwrap();
    assert_eq!(p.goal, Some((want.clone(), 1)));
    let e = err("g.non", &format!("{base}goal \"011010010111000\"\n"));
    assert_eq!(e.line, 13);
    assert!(
        e.message
            .contains("the goal has 15 cells but the puzzle has 4 x 4 = 16"),
        "{e}"
    );
}

#[test]
fn non_with_a_missing_row_names_it() {
    // Simpson's files separate sections with a blank line; that blank is not a row.
    let e = err(
        "m.non",
        "width 4\nheight 5\nrows\n2\n1,1\n3\n1\n\ncolumns\n1\n1,1\n1,1\n3\n",
    );
    assert_eq!(e.line, 9);
    assert!(e.message.contains("row 5 is missing"), "{e}");
    let e = err(
        "m.non",
        "width 5\nheight 4\nrows\n2\n1,1\n3\n1\ncolumns\n1\n1,1\n1,1\n3\n",
    );
    assert_eq!(e.line, 8);
    assert!(e.message.contains("column 5 is missing"), "{e}");
    // nonogram-db's empty rows written as blank lines still count.
    let p = parse("b.non", "width 2\nheight 3\nrows\n1\n\n\n\ncolumns\n1\n0\n").unwrap();
    assert_eq!(p.rows, vec![vec![1], vec![], vec![]]);
}
