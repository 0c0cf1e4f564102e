//! Colour puzzles: every colour format, black-and-white files written in
//! colour formats, malformed colour files (file, line, problem), and
//! `solve` on colour puzzles (text, JSON, pictures, refusals by `send`).

use nonohost::colour::search::solve;
use nonohost::colour::Rule;
use nonohost::puzzle::{parse_any, AnyPuzzle, ColourPuzzle, Format, ParseError, Puzzle};
use nonohost::solver::Budget;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn any(name: &str, text: &str) -> Result<AnyPuzzle, ParseError> {
    parse_any(name, text, None).map(|(mut v, _)| v.remove(0))
}

fn colour(name: &str, text: &str) -> ColourPuzzle {
    match any(name, text) {
        Ok(AnyPuzzle::Colour(p)) => p,
        other => panic!("{name}: expected a colour puzzle, got {other:?}"),
    }
}

fn mono(name: &str, text: &str) -> Puzzle {
    match any(name, text) {
        Ok(AnyPuzzle::Mono(p)) => p,
        other => panic!("{name}: expected black and white, got {other:?}"),
    }
}

fn err(name: &str, text: &str) -> ParseError {
    match any(name, text) {
        Ok(p) => panic!("{name} parsed: {p:?}"),
        Err(e) => e,
    }
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name)
        .display()
        .to_string()
}

fn read_example(name: &str) -> String {
    std::fs::read_to_string(example(name)).unwrap()
}

/// The unique solution's rows in the palette's characters.
fn unique_solution(p: &ColourPuzzle) -> Vec<u8> {
    let found = solve(p, 2, &Budget::default());
    assert_eq!(found.count, 1, "{}", p.name);
    found.first.unwrap()
}

#[test]
fn the_three_block_formats_read_the_same_mushroom() {
    let xml = colour("mushroom.xml", &read_example("colour/mushroom.xml"));
    let g = colour("mushroom.g", &read_example("colour/mushroom.g"));
    let non = colour("mushroom.non", &read_example("colour/mushroom.non"));
    assert_eq!(xml.rule, Rule::Blocks);
    assert_eq!((xml.width(), xml.height(), xml.colours.len()), (12, 12, 5));
    // The same clues, colour for colour (the palettes list them alike).
    for p in [&g, &non] {
        assert_eq!(p.rows, xml.rows, "{}", p.name);
        assert_eq!(p.columns, xml.columns, "{}", p.name);
    }
    let (goal, at) = xml.goal.clone().unwrap();
    assert!(at > 0);
    assert_eq!(unique_solution(&xml), goal);
    assert_eq!(unique_solution(&g), goal);
    assert_eq!(non.goal.as_ref().map(|(g, _)| g), Some(&goal));
    assert_eq!(xml.check_solution(&goal), Ok(()));
}

#[test]
fn detection_by_content() {
    let g = read_example("colour/mushroom.g");
    assert_eq!(parse_any("puzzle.txt", &g, None).unwrap().1, Format::Olsak);
    let codes = read_example("colour/two.tpdne");
    assert_eq!(parse_any("codes.txt", &codes, None).unwrap().1, Format::Tpdne);
}

#[test]
fn a_black_and_white_xml_written_with_colours_is_black_and_white() {
    // defaultcolor="white", white and black declared, color="black" on every count.
    let text = r#"<puzzleset><puzzle type="grid" defaultcolor="white">
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="rows"><line><count color="black">2</count></line><line><count color="black">1</count></line></clues>
<clues type="columns"><line><count color="black">2</count></line><line><count color="black">1</count></line></clues>
<solution type="goal"><image>|XX|
|X.|</image></solution>
</puzzle></puzzleset>"#;
    let p = mono("bw.xml", text);
    assert_eq!(p.rows, vec![vec![2], vec![1]]);
    assert_eq!(p.goal.unwrap().0, vec![true, true, true, false]);
    // The board's loader takes it too.
    assert!(Puzzle::parse("bw.xml", text, None).is_ok());
}

#[test]
fn olsak_files_without_colours_and_with_blank_lines() {
    let text = "Comment lines come first.\n: rows\n1\n\n2\n: columns\n1\n1 \n1\n: end\ntrailing text\n";
    let p = mono("bw.g", text);
    assert_eq!(p.rows, vec![vec![1], vec![], vec![2]]);
    assert_eq!(p.columns, vec![vec![1], vec![1], vec![1]]);
}

#[test]
fn non_colour_clues_without_color_lines() {
    let text = "width 2\nheight 2\nrows\n1a,1b\n1a\ncolumns\n2a\n1b\n";
    let p = colour("x.non", text);
    assert_eq!(p.colours.len(), 3);
    let solution = unique_solution(&p);
    let a = p.colours.iter().position(|c| c.ch == 'a').unwrap() as u8;
    let b = p.colours.iter().position(|c| c.ch == 'b').unwrap() as u8;
    assert_eq!(solution, vec![a, b, a, 0]);
}

#[test]
fn tpdne_codes_are_decided() {
    let (puzzles, format) = parse_any("two.tpdne", &read_example("colour/two.tpdne"), None).unwrap();
    assert_eq!(format, Format::Tpdne);
    let puzzles: Vec<ColourPuzzle> = puzzles
        .into_iter()
        .map(|p| match p {
            AnyPuzzle::Colour(p) => p,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(puzzles.len(), 2);
    for p in &puzzles {
        assert_eq!((p.width(), p.height(), p.rule), (10, 15, Rule::Counts));
        let (goal, _) = p.goal.clone().unwrap();
        assert_eq!(p.check_solution(&goal), Ok(()));
    }
    // The site's first example is unique and is its picture ...
    assert_eq!(unique_solution(&puzzles[0]), puzzles[0].goal.clone().unwrap().0);
    // ... the second has several solutions; both satisfy the clues.
    let found = solve(&puzzles[1], 2, &Budget::default());
    assert_eq!(found.count, 2);
    for s in [found.first.unwrap(), found.second.unwrap()] {
        assert_eq!(puzzles[1].check_solution(&s), Ok(()));
    }
}

#[test]
fn malformed_colour_files_name_file_line_and_problem() {
    // .g: a block in a colour the #d table does not declare.
    let e = err(
        "u.g",
        "#d\n   r:r  red\n: rows\n1r\n1q\n: columns\n1r\n1\n: end\n",
    );
    assert_eq!((e.file.as_str(), e.line), ("u.g", 5));
    assert!(e.message.contains("no colour 'q'"), "{e}");
    // XML: a count in an undeclared colour.
    let e = err(
        "u.xml",
        "<puzzleset><puzzle>\n<color name=\"white\" char=\".\">fff</color>\n<clues type=\"rows\"><line>\n<count color=\"teal\">1</count></line></clues>\n<clues type=\"columns\"><line><count>1</count></line></clues></puzzle></puzzleset>",
    );
    assert_eq!(e.line, 4);
    assert!(e.message.contains("'teal', which no <color> declares"), "{e}");
    // .non: a colour char no 'color' line declares, when some are declared.
    let e = err(
        "u.non",
        "width 2\nheight 1\ncolor a #ff0000\nrows\n1a,1z\ncolumns\n1a\n1z\n",
    );
    assert_eq!(e.line, 5);
    assert!(e.message.contains("'z' is not declared"), "{e}");
    // A colour hint that cannot fit: two red blocks need a gap.
    let e = err(
        "f.g",
        "#d\n   r:r  red\n: rows\n1r 1r\n: columns\n1r\n1r\n: end\n",
    );
    assert_eq!(e.line, 4);
    assert!(
        e.message
            .contains("row 1: clue 1r 1r needs 3 cells but the line has 2"),
        "{e}"
    );
    // Blocks of two colours may touch: this one fits.
    assert!(any(
        "t.g",
        "#d\n   r:r  red\n   b:b  blue\n: rows\n1r 1b\n: columns\n1r\n1b\n: end\n"
    )
    .is_ok());
    // A TPDNE code that is not base64.
    let e = err(
        "x.tpdne",
        "# one code\n!!!!wonNx476rbGdClf///wwV8GqfAFPwCn8Cp/BbUAAAEAAZAAKlYBVVAVVQVWUFWVVVA=\n",
    );
    assert_eq!(e.line, 2);
    // The board's loader refuses a colour puzzle, saying what it is.
    let e = Puzzle::parse("m.g", &read_example("colour/mushroom.g"), None).unwrap_err();
    assert!(e.message.contains("a colour puzzle (4 colours"), "{e}");
}

fn nonohost(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(args)
        .env_remove("COLORTERM")
        .output()
        .expect("run nonohost")
}

#[test]
fn solve_shows_colour_puzzles_and_writes_pictures() {
    let o = nonohost(&["solve", &example("colour/mushroom.xml")]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("....bwbb...."), "{text}");
    assert!(text.contains("the only solution"), "{text}");

    let o = nonohost(&["solve", "--json", &example("colour/two.tpdne")]);
    assert_eq!(o.status.code(), Some(3), "the second code has several solutions");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["status"], "solved");
    assert_eq!(lines[0]["rows"][0], "3333333333");
    assert_eq!(lines[1]["status"], "several_solutions");
    assert_eq!(lines[1]["other_rows"].as_array().unwrap().len(), 15);

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (png, svg) = (dir.join("mushroom.png"), dir.join("heart.svg"));
    let o = nonohost(&[
        "solve",
        "-q",
        "--png",
        &png.display().to_string(),
        &example("colour/mushroom.g"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    // Black and white too.
    let o = nonohost(&[
        "solve",
        "-q",
        "--svg",
        &svg.display().to_string(),
        &example("heart6x7.txt"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<rect"));
}

#[test]
fn send_refuses_a_colour_puzzle_the_flash_cannot_take() {
    // Over the board's capacity: no flash image takes colour yet.
    let o = nonohost(&["send", "--sim", &example("colour/mushroom.xml")]);
    assert_eq!(o.status.code(), Some(4));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds no colour image") && err.contains("nonohost solve"),
        "{err}"
    );
    // TPDNE's counts are refused before the port is opened.
    let o = nonohost(&["send", "--port", "/dev/null/none", &example("colour/two.tpdne")]);
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not TPDNE's counts"));
}

/// Text made of the pieces colour files are made of, in any order.
fn colour_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let piece = prop_oneof![
        Just(": rows\n"),
        Just(": columns\n"),
        Just(": end\n"),
        Just("#d\n"),
        Just("   r:r  red\n"),
        Just("   1:*  #000\n"),
        Just("   0:   white\n"),
        Just("color a #ff0000\n"),
        Just("width 3\n"),
        Just("height 2\n"),
        Just("rows\n"),
        Just("columns\n"),
        Just("goal \"0a1\"\n"),
        Just("1r "),
        Just("2a,"),
        Just("3 "),
        Just("0\n"),
        Just("\n"),
        Just("q"),
        Just("5wonNx476rbGdClf///wwV8GqfAFPwCn8Cp/BbUAAAEAAZAAKlYBVVAVVQVWUFWVVVA=\n"),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { failure_persistence: None, cases: 400, ..Default::default() })]

    /// No colour file panics; whatever parses has clues that fit and can be
    /// solved (small boards) with answers that keep the clues.
    #[test]
    fn near_miss_colour_files_never_panic(text in colour_text()) {
        for format in [None, Some(Format::Olsak), Some(Format::Non), Some(Format::Tpdne), Some(Format::Xml)] {
            match parse_any("c.g", &text, format) {
                Ok((puzzles, _)) => {
                    for p in puzzles {
                        if let AnyPuzzle::Colour(p) = p {
                            proptest::prop_assert!(p.check_fit().is_ok());
                            let found = solve(&p, 2, &Budget::default());
                            for s in found.first.iter().chain(&found.second) {
                                proptest::prop_assert_eq!(p.check_solution(s), Ok(()));
                            }
                        }
                    }
                }
                Err(e) => proptest::prop_assert!(e.to_string().starts_with("c.g")),
            }
        }
    }
}

#[test]
fn solve_takes_many_files_and_exports_non_that_reads_back() {
    let o = nonohost(&[
        "solve",
        "--no-color",
        &example("four.xml"),
        &example("colour/two.tpdne"),
        &example("nosolution.txt"),
    ]);
    // The highest exit code of the batch: several solutions (3).
    assert_eq!(o.status.code(), Some(3));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("4 puzzles: 2 solved, 2 other"), "{text}");
    assert!(text.contains("several solutions"), "{text}");

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for (name, file) in [("mushroom", "colour/mushroom.g"), ("heart", "heart6x7.txt")] {
        let out = dir.join(format!("{name}-export.non"));
        let o = nonohost(&[
            "solve",
            "-q",
            "--output",
            &out.display().to_string(),
            &example(file),
        ]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        // The export reads back, and its goal is the answer.
        let o = nonohost(&["solve", "--json", &out.display().to_string()]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(json["goal"], "match", "{name}");
    }
}
