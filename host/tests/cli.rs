//! The `nonohost` binary: output and exit codes.

use nonohost::fake::ModelBoard;
use serialport::{SerialPort, TTYPort};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nonohost(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(args)
        .output()
        .expect("run nonohost")
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name)
        .display()
        .to_string()
}

fn temp(name: &str, text: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn solve_prints_the_picture_with_its_clues() {
    let o = nonohost(&["solve", &example("heart6x7.txt")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("     2 4 5 4 5 4 2\n2 2  . # # . # # .\n3 3  # # # . # # #\n"),
        "{out}"
    );
    assert!(out.contains("solved by the host"), "{out}");
}

/// No solution: no grid (line logic's cells when a line emptied would read
/// like an answer), the line that lost its last option.
#[test]
fn no_solution_prints_no_grid() {
    let o = nonohost(&["solve", &example("nosolution.txt")]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(!out.contains('#'), "{out}");
    assert!(out.contains("no solution: column 3 has no option left"), "{out}");
}

#[test]
fn exit_codes_of_solve() {
    assert_eq!(
        nonohost(&["solve", &example("x11x11.txt")]).status.code(),
        Some(0)
    );
    assert_eq!(
        nonohost(&["solve", &example("nosolution.txt")]).status.code(),
        Some(2)
    );
    assert_eq!(
        nonohost(&["solve", &example("several.txt")]).status.code(),
        Some(3)
    );
    assert_eq!(nonohost(&["solve", "/no/such/file.txt"]).status.code(), Some(1));
    assert_eq!(nonohost(&["solve"]).status.code(), Some(1), "usage error");
    assert_eq!(nonohost(&["bogus"]).status.code(), Some(1), "usage error");
}

#[test]
fn solve_json_reports_an_output_it_cannot_write() {
    // The answer is found, but the picture and the export cannot be
    // written: the exit code is 1, and the JSON object must say why rather
    // than read as a clean success.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-dir");
    let _ = std::fs::remove_dir_all(&dir);
    for (flag, name, file) in [
        ("--png", "x.png", "heart6x7.txt"),
        ("--output", "x.non", "heart6x7.txt"),
        ("--svg", "x.svg", "colour/mushroom.g"),
    ] {
        let target = dir.join(name).display().to_string();
        let o = nonohost(&["solve", "--json", flag, &target, &example(file)]);
        assert_eq!(o.status.code(), Some(1), "{flag}: {}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["status"], "solved", "{flag}");
        let error = j["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{flag}: no error in {j}"));
        assert!(
            error.contains("cannot write") && error.contains(name),
            "{flag}: {error}"
        );
        assert!(stderr(&o).contains("cannot write"), "{flag}");
    }
    // Without --json the text is unchanged: the error goes to stderr alone.
    let target = dir.join("x.png").display().to_string();
    let o = nonohost(&["solve", "--png", &target, &example("heart6x7.txt")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("cannot write"), "{}", stdout(&o));
    assert!(stderr(&o).contains("cannot write"));
}

#[test]
fn solve_json() {
    let o = nonohost(&["solve", "--json", &example("several.txt")]);
    assert_eq!(o.status.code(), Some(3));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["status"], "several_solutions");
    assert_eq!(j["solutions"], 2);
    assert_eq!(j["width"], 4);
    assert_eq!(j["line_logic"], "stalled");
    // Two different full solutions, each of which satisfies every clue.
    let puzzle = nonohost::puzzle::Puzzle::load(std::path::Path::new(&example("several.txt"))).unwrap();
    let grid = |rows: &serde_json::Value| -> Vec<bool> {
        let rows: Vec<String> = serde_json::from_value(rows.clone()).unwrap();
        rows.concat().chars().map(|c| c == '#').collect()
    };
    let (first, second) = (grid(&j["rows"]), grid(&j["other_rows"]));
    assert_ne!(first, second);
    for solution in [&first, &second] {
        assert_eq!(puzzle.check_solution(solution), Ok(()));
    }
    assert_eq!(first.len(), 16);

    let o = nonohost(&["solve", "--json", &example("4x4.txt")]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["status"], "solved");
    assert_eq!(j["solved_by"], "host");
    assert_eq!(j["rows"], serde_json::json!([".##.", "#..#", ".###", "...#"]));
    assert_eq!(j["options"], 24);
    assert!(j["cycles"].is_null());

    let o = nonohost(&["solve", "--json", &example("nosolution.txt")]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["status"], "no_solution");
}

#[test]
fn malformed_files_name_file_and_line() {
    let bad = temp("bad-board.txt", "rows:\n1\n1 x\ncolumns:\n1\n");
    let o = nonohost(&["solve", &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("{bad}:3: bad clue '1 x'")),
        "{}",
        stderr(&o)
    );
    let o = nonohost(&["solve", "--json", &bad]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["status"], "error");
    assert!(j["error"].as_str().unwrap().contains(":3:"));
    // A clue too long for its line is refused before anything is sent.
    let long = temp("long.txt", "rows:\n3\ncolumns:\n1\n1\n");
    let o = nonohost(&["send", "--port", "/dev/null", &long]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("row 1: clue 3 needs 3 cells but the line has 2"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn info_tells_the_numbers() {
    let o = nonohost(&["info", &example("4x4.txt")]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let p = nonohost::Puzzle::load(Path::new(&example("4x4.txt"))).unwrap();
    let bytes = nonohost::wire::wire_bytes(&p, false);
    let every = nonohost::wire::wire_bytes(&p, true);
    assert!(out.contains("options per row:    3 3 2 4"), "{out}");
    assert!(
        out.contains(&format!(
            "bytes on the wire:  {bytes} (filled cells only), {every} (--every-cell)"
        )),
        "{out}"
    );
    assert!(out.contains("fits the board:     yes"), "{out}");

    let o = nonohost(&["info", "--json", "--baud", "115200", &example("random15x15.txt")]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["width"], 15);
    assert_eq!(j["baud"], 115200);
    assert_eq!(j["fits"], true);
    assert_eq!(j["row_options"].as_array().unwrap().len(), 15);
}

/// A 200×200 has more options and wire bytes than a u64 holds: `info`
/// says "≥2^64" and a time in years, not the saturated u64.
#[test]
fn info_on_a_huge_puzzle_tells_no_absurd_numbers() {
    let file = temp("info200x200.txt", &random_picture(200, 200, 50, 200));
    let o = nonohost(&["info", &file]);
    let out = stdout(&o);
    assert!(!out.contains(&u64::MAX.to_string()), "{out}");
    assert!(
        out.contains("options in all:     ≥2^64 (the board holds"),
        "{out}"
    );
    assert!(
        out.contains("bytes on the wire:  ≥2^64 (filled cells only)"),
        "{out}"
    );
    let time = out
        .lines()
        .find(|l| l.starts_with("send time:"))
        .unwrap_or_default();
    assert!(time.contains("more than ") && time.contains("years"), "{out}");
    let clues = out
        .lines()
        .find(|l| l.starts_with("clue engine"))
        .unwrap_or_default();
    assert!(clues.contains(" s at 9600 baud"), "{out}");
    // JSON: a saturated count is null, and so is its time.
    let o = nonohost(&["info", "--json", &file]);
    let out = stdout(&o);
    assert!(!out.contains(&u64::MAX.to_string()), "{out}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        j["options"].is_null() && j["bytes"].is_null() && j["seconds"].is_null(),
        "{out}"
    );
    assert!(j["clue_bytes"].as_u64().is_some(), "{out}");
}

fn over_capacity_file() -> String {
    let mut text = String::from("rows:\n");
    text.push_str(&"1 1\n".repeat(30));
    text.push_str("columns:\n");
    text.push_str(&"1 1\n".repeat(30));
    temp("big.txt", &text)
}

#[test]
fn a_puzzle_no_engine_takes_is_refused_before_sending() {
    // 64 x 64 with 32 blocks in every line: 4 096 blocks, over the clue
    // store's 2 048, and over the DNF engine's 32 x 32.
    let line = format!("{}\n", vec!["1"; 32].join(" "));
    let text = format!("rows:\n{}columns:\n{}", line.repeat(64), line.repeat(64));
    let big = temp("checkered.txt", &text);
    for engine in ["auto", "clues"] {
        let o = nonohost(&["send", "--engine", engine, "--port", "/dev/ttyNOSUCHPORT", &big]);
        assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
        // A refusal is a diagnostic: on stderr, nothing on stdout.
        assert!(
            stderr(&o).contains("4096 blocks but the clue engine's store holds 2048"),
            "{}",
            stderr(&o)
        );
        assert_eq!(stdout(&o), "");
    }
}

#[test]
fn over_capacity_is_refused_before_sending() {
    let big = over_capacity_file();
    // No port is touched: a port that does not exist does not matter.
    let o = nonohost(&["send", "--engine", "dnf", "--port", "/dev/ttyNOSUCHPORT", &big]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("24360 options but the board holds 2048"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");
    let o = nonohost(&[
        "send",
        "--engine",
        "dnf",
        "--json",
        "--port",
        "/dev/ttyNOSUCHPORT",
        &big,
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["status"], "over_capacity");
    // info: over the DNF engine, but the clue engine takes it.
    let o = nonohost(&["info", "--json", &big]);
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (j["fits"].as_bool(), j["fits_clues"].as_bool()),
        (Some(false), Some(true))
    );
    assert_eq!(
        j["clue_bytes"],
        nonohost::wire::clue_bytes(&nonohost::puzzle::Puzzle::load(Path::new(&big)).unwrap())
    );
    let out = temp("big.bin", "");
    assert_eq!(nonohost(&["encode", &big, "-o", &out]).status.code(), Some(4));
    // But software solves it (the puzzle has many solutions).
    assert_eq!(nonohost(&["solve", &big]).status.code(), Some(3));
}

#[test]
fn encode_writes_the_exact_stream() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("heart.bin");
    for every in [false, true] {
        let mut args = vec![
            "encode".to_string(),
            example("heart6x7.txt"),
            "-o".into(),
            out.display().to_string(),
        ];
        if every {
            args.push("--every-cell".into());
        }
        let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let p = nonohost::Puzzle::load(Path::new(&example("heart6x7.txt"))).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), nonohost::wire::encode(&p, every));
    }
}

#[test]
fn port_errors() {
    let o = nonohost(&["send", "--port", "/dev/ttyNOSUCHPORT", &example("4x4.txt")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("serial port /dev/ttyNOSUCHPORT does not exist"),
        "{}",
        stderr(&o)
    );
    // The simulated board answers where no port is needed.
    let o = nonohost(&["send", "--sim", &example("4x4.txt")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("solved by the board"), "{}", stdout(&o));
    let o = nonohost(&["ports"]);
    assert_eq!(o.status.code(), Some(0));
    let o = nonohost(&["ports", "--json"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(j["ports"].is_array());
}

/// With --json, stdout holds exactly one JSON object, with `status` and
/// `error`, whatever happens; diagnostics go to stderr.
#[test]
fn json_is_one_object_for_every_subcommand() {
    let four = example("4x4.txt");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["solve", &four], "solved"),
        (vec!["solve", "/no/such.non"], "error"),
        (vec!["solve", "--max-time", "x", &four], "error"),
        (vec!["send", "--port", "/dev/ttyNOSUCHPORT", &four], "error"),
        (vec!["info", &four], "ok"),
        (vec!["info", "/no/such.non"], "error"),
        (vec!["ports"], "ok"),
        (vec!["census", "--size", "2", "--quiet"], "ok"),
        (vec!["census", "--size", "9x9"], "error"),
        (vec!["sweep", "--count", "2", "--size", "4", "--quiet"], "ok"),
        (vec!["sweep", "--density", "2"], "error"),
    ];
    for (mut args, status) in cases {
        args.push("--json");
        let o = nonohost(&args);
        let out = stdout(&o);
        assert_eq!(out.trim_end().lines().count(), 1, "{args:?}: {out}");
        let j: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
        assert_eq!(j["status"], status, "{args:?}: {out}");
        assert!(j.get("error").is_some(), "{args:?}: {out}");
        assert_eq!(j["error"].is_null(), status != "error", "{args:?}: {out}");
    }
    // A usage error's JSON has clap's whole message, with the argument's name.
    let o = nonohost(&["send", "--json"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        j["error"],
        "usage: the following required arguments were not provided: <FILE>..."
    );
    let o = nonohost(&["solve", "--json", "--bogus", &four]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let error = j["error"].as_str().unwrap_or_default();
    assert!(
        error.starts_with("usage: unexpected argument '--bogus' found") && !error.contains("Usage:"),
        "{error}"
    );
    // Without --json, a port error is a diagnostic: stderr only.
    let o = nonohost(&["send", "--port", "/dev/ttyNOSUCHPORT", &four]);
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("ttyNOSUCHPORT"), "{}", stderr(&o));
}

#[test]
fn help_documents_exit_codes() {
    let o = nonohost(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("Exit codes:") && out.contains("4  over the board's capacity"),
        "{out}"
    );
    let o = nonohost(&["send", "--help"]);
    assert!(stdout(&o).contains("--every-cell") && stdout(&o).contains("Exit codes:"));
}

/// `nonohost send --port` on a pseudo-terminal served by the model board.
#[test]
fn send_to_the_model_board_on_a_pty() {
    for (name, code, status) in [
        ("duck.non", 0, "solved"),
        ("nosolution.txt", 2, "no_solution"),
        ("several.txt", 3, "several_solutions"),
    ] {
        let (board_end, host_end) = TTYPort::pair().unwrap();
        let path = host_end.name().unwrap();
        let running = ModelBoard::new().spawn(Box::new(board_end));
        let o = nonohost(&["send", "--json", "--port", &path, &example(name)]);
        assert_eq!(
            o.status.code(),
            Some(code),
            "{name}: {} {}",
            stdout(&o),
            stderr(&o)
        );
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["status"], status);
        assert!(j["bytes_sent"].as_u64().unwrap() > 0);
        assert!(j["link_seconds"].as_f64().unwrap() > 0.0);
        if code == 0 {
            assert_eq!(j["solved_by"], "board");
            assert!(j["cycles"].as_u64().unwrap() > 0);
        }
        drop(host_end);
        running.stop().unwrap();
    }
    // The DNF board stalls on several.txt and the host finishes: the headline says both.
    let (board_end, host_end) = TTYPort::pair().unwrap();
    let path = host_end.name().unwrap();
    let running = ModelBoard::new().spawn(Box::new(board_end));
    let o = nonohost(&[
        "send",
        "--engine",
        "dnf",
        "--port",
        &path,
        &example("several.txt"),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\nseveral solutions (board+host): the board stalled"),
        "{}",
        stdout(&o)
    );
    drop(host_end);
    running.stop().unwrap();
    // And the text output.
    let (board_end, host_end) = TTYPort::pair().unwrap();
    let path = host_end.name().unwrap();
    let _running = ModelBoard::new().spawn(Box::new(board_end));
    let o = nonohost(&["send", "--port", &path, &example("4x4.txt")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("solved by the board"), "{out}");
    assert!(out.contains("cycles") && out.contains("at 100 MHz"), "{out}");
    assert!(out.contains("link: ") && out.contains("bytes sent"), "{out}");
    drop(host_end);
}

/// A board that finds the stream malformed: the answer is a diagnostic,
/// on stderr, with exit code 1; nothing on stdout.
#[test]
fn a_malformed_stream_answer_goes_to_stderr() {
    use nonogram_hdl::board_model::BoardModel;
    use nonohost::fake::Behaviour;
    let p = nonohost::Puzzle::load(Path::new(&example("4x4.txt"))).unwrap();
    // The model's answer to the stream with a line number changed.
    let mut bad = nonohost::wire::encode(&p, false);
    bad[2 * 2 + 1] ^= 0x02;
    let mut model = BoardModel::default();
    let reply = bad.iter().find_map(|&b| model.byte(b)).expect("a refusal");
    let (board_end, host_end) = TTYPort::pair().unwrap();
    let path = host_end.name().unwrap();
    let _running = ModelBoard::with_behaviour(Behaviour::Garbage(reply)).spawn(Box::new(board_end));
    let o = nonohost(&["send", "--engine", "dnf", "--port", &path, &example("4x4.txt")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("the board found the stream malformed: a line out of order"),
        "{}",
        stderr(&o)
    );
    drop(host_end);
}

/// `info -` names the format detected on standard input.
#[test]
fn info_names_the_format_of_standard_input() {
    use std::io::Write;
    for (name, format) in [
        ("duck.non", ".non"),
        ("four.xml", "webpbn XML"),
        ("4x4.txt", "board.txt"),
        ("smiley.txt", "picture"),
    ] {
        let text = std::fs::read(example(name)).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_nonohost"))
            .args(["info", "-", "--json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&text).unwrap();
        let o = child.wait_with_output().unwrap();
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(j["format"], format, "{name}: {j}");
    }
}

/// Settings that do not apply are warned about: an unknown
/// NONOGRAM_SIM_BACKEND, and --every-cell sent to the clue engine.
#[test]
fn ignored_settings_are_warned_about() {
    let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["send", "--sim", "--quiet", &example("4x4.txt")])
        .env("NONOGRAM_SIM_BACKEND", "bogus")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: NONOGRAM_SIM_BACKEND=\"bogus\" is neither rusthdl nor verilator"),
        "{}",
        stderr(&o)
    );
    let o = nonohost(&[
        "send",
        "--sim",
        "--engine",
        "clues",
        "--every-cell",
        &example("4x4.txt"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: --every-cell applies to the DNF engine's options"),
        "{}",
        stderr(&o)
    );
    let o = nonohost(&[
        "send",
        "--sim",
        "--engine",
        "dnf",
        "--every-cell",
        &example("4x4.txt"),
    ]);
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

/// A sweep whose pictures never fit the engine says what to change.
#[test]
fn a_sweep_where_nothing_fits_gives_a_hint() {
    let o = nonohost(&[
        "sweep",
        "--count",
        "2",
        "--size",
        "20",
        "--threads",
        "1",
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("2 puzzles GIVEN UP (nothing fit)"),
        "{}",
        stdout(&o)
    );
    let err = stderr(&o);
    assert!(
        err.contains("hint: 2 puzzles drew no picture that fits the DNF engine in 100 tries")
            && err.contains("--engine clues")
            && err.contains("--density"),
        "{err}"
    );
}

/// `-` reads the puzzle from standard input, in any format.
#[test]
fn solve_reads_standard_input() {
    use std::io::Write;
    for text in [
        "\u{feff}rows:\r\n2\r\ncolumns:\r\n1\r\n1\r\n",
        "width 2\nheight 1\nrows\n2\ncolumns\n1\n1\n",
        "##\n",
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nonohost"))
            .args(["solve", "-", "--json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{text:?}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("\"#\"") || stdout.contains("##"),
            "{text:?}: {stdout}"
        );
    }
}

/// Numeric flags out of range are usage errors when the command line is
/// parsed (exit 1, as every error; 2 means "no solution"): nothing runs,
/// panics or hangs.
#[test]
fn out_of_range_flags_are_usage_errors() {
    let heart = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/heart6x7.txt");
    for args in [
        vec!["send", heart, "--sim", "--baud", "0"],
        vec!["send", heart, "--sim", "--baud", "1"],
        vec!["send", heart, "--sim", "--timeout", "inf"],
        vec!["send", heart, "--sim", "--timeout", "0"],
        vec!["send", heart, "--sim", "--timeout", "nan"],
        vec!["info", heart, "--baud", "0"],
        vec!["sweep", "--count", "0"],
        vec!["sweep", "--density", "2"],
        vec!["sweep", "--threads", "0"],
        vec!["census", "--limit", "0"],
    ] {
        let o = nonohost(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("invalid value"), "{args:?}: {stderr}");
        assert!(o.stdout.is_empty(), "{args:?}: usage errors go to stderr");
    }
}

/// A random picture (xorshift, `percent` filled) as text.
fn random_picture(height: usize, width: usize, percent: u64, mut seed: u64) -> String {
    let mut text = String::new();
    for _ in 0..height {
        for _ in 0..width {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            text.push(if seed % 100 < percent { '#' } else { '.' });
        }
        text.push('\n');
    }
    text
}

/// Puzzles far over the board, 75×50 and 99×99, are solved in software:
/// every row of the answer (and of a second solution) satisfies the clues.
#[test]
fn solve_takes_any_size() {
    for (h, w, percent) in [(50usize, 75usize, 80u64), (50, 75, 60), (99, 99, 60)] {
        let text = random_picture(h, w, percent, (h * w) as u64 + percent);
        let file = temp(&format!("big{h}x{w}_{percent}.txt"), &text);
        let o = nonohost(&["solve", "--json", "--max-time", "60", &file]);
        let j: serde_json::Value =
            serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
        assert!(matches!(o.status.code(), Some(0) | Some(3)), "{h}x{w}: {j}");
        assert_eq!(
            (j["width"].as_u64(), j["height"].as_u64()),
            (Some(w as u64), Some(h as u64))
        );
        let puzzle = nonohost::puzzle::Puzzle::load(Path::new(&file)).unwrap();
        for rows in [&j["rows"], &j["other_rows"]] {
            if rows.is_null() {
                continue;
            }
            let cells: Vec<bool> = rows
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_str().unwrap().chars())
                .map(|c| c == '#')
                .collect();
            assert_eq!(puzzle.check_solution(&cells), Ok(()), "{h}x{w}");
        }
    }
}

/// --max-time stops a search that would run for minutes: exit code 5, the
/// cells fixed so far, and one JSON object.
#[test]
fn max_time_gives_up_with_its_own_exit_code() {
    let file = temp("hard75x50.txt", &random_picture(50, 75, 50, 12345));
    let o = nonohost(&["solve", "--json", "--max-time", "1", &file]);
    assert_eq!(o.status.code(), Some(5), "{}", stdout(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["status"], "gave_up");
    assert_eq!(j["rows"].as_array().map(|r| r.len()), Some(50));
    for bad in ["0", "-1", "inf", "nan", "1e300"] {
        let o = nonohost(&["solve", &format!("--max-time={bad}"), &file]);
        assert_eq!(o.status.code(), Some(1), "--max-time {bad}");
        assert!(stderr(&o).contains("--max-time"), "{}", stderr(&o));
    }
}

/// SIGTERM (as `timeout` sends) stops the search like Ctrl-C: the partial
/// grid, exit 5; a closed pipe on stdout ends the program quietly.
#[test]
fn sigterm_stops_the_search_and_a_closed_pipe_is_quiet() {
    use std::process::{Command, Stdio};
    let file = temp("hard75x50-term.txt", &random_picture(50, 75, 50, 12345));
    let child = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["solve", "--json", &file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The search of this 75×50 runs for minutes (see the --max-time test).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: a plain kill(2) of our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(5), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (j["status"].as_str(), j["rows"].as_array().map(|r| r.len())),
        (Some("gave_up"), Some(50))
    );
    // stdout closed before the answer is printed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["solve", &example("x11x11.txt")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("panicked") && o.status.code() != Some(101),
        "{:?}: {err}",
        o.status
    );
}

/// A file's goal is checked against the answer.
#[test]
fn the_goal_is_checked() {
    let o = nonohost(&["solve", &example("four.xml")]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("goal: the answer is the file's goal"),
        "{}",
        stdout(&o)
    );
    let bad = temp(
        "badgoal.non",
        "width 4\nheight 4\nrows\n2\n1,1\n3\n1\ncolumns\n1\n1,1\n1,1\n3\ngoal \"0110100101110011\"\n",
    );
    // A goal that breaks the clues: a warning on stderr, exit code 6.
    let o = nonohost(&["solve", &bad]);
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(stdout(&o).contains("solved by the host"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("goal:"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains(&format!(
            "warning: {bad}: the goal (line 13) breaks the clues: row 4 reads 2 but its clue is 1"
        )),
        "{}",
        stderr(&o)
    );
    let o = nonohost(&["solve", "--json", &bad]);
    assert_eq!(o.status.code(), Some(6));
    assert!(stderr(&o).contains("warning: "), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["goal"], "mismatch");
    assert!(
        j["goal_message"]
            .as_str()
            .unwrap()
            .contains("row 4 reads 2 but its clue is 1"),
        "{j}"
    );
    // Two solutions; the search finds the other one first. In
    // first-solution mode a goal that fits the clues is another solution,
    // not a mismatch.
    let two = temp(
        "twogoals.non",
        "width 4\nheight 5\nrows\n1\n1,1\n0\n2\n1\ncolumns\n1,1\n1,1\n1\n1\ngoal \"01001001000001101000\"\n",
    );
    let o = nonohost(&["solve", "--first", "--json", &two]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (j["goal"].as_str(), j["uniqueness_checked"].as_bool()),
        (Some("other"), Some(false)),
        "{j}"
    );
    let o = nonohost(&["solve", "--json", &two]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (j["status"].as_str(), j["goal"].as_str()),
        (Some("several_solutions"), Some("other")),
        "{j}"
    );
}

#[test]
fn tournament_prints_both_sides_and_refuses_bad_flags() {
    let o = nonohost(&["tournament", "--count", "4", "--size", "10", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("tournament: 4 puzzles, random 10x10 pictures")
            && out.contains("first solution mode"),
        "{out}"
    );
    // The board is the engine `send` picks for a 10x10: probing.
    assert!(
        out.contains("\nboard (the probing engine's cycle-exact model") && out.contains("\nsoftware ("),
        "{out}"
    );
    let o = nonohost(&["tournament", "--count", "2", "--size", "10", "--engine", "clues"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\nboard (the clue engine's cycle-exact model"),
        "{}",
        stdout(&o)
    );
    let o = nonohost(&["tournament", "--count", "2", "--size", "6", "--unique", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["results"]["puzzles"], 2);
    assert_eq!(
        (j["puzzles"].as_u64(), j["mode"].as_str()),
        (Some(2), Some("uniqueness"))
    );
    for key in [
        "board_solved",
        "board_seconds",
        "software_solved",
        "software_seconds",
    ] {
        assert!(j[key].is_number(), "{key}: {j}");
    }
    for bad in [
        ["--size", "65"],
        ["--density", "2"],
        ["--max-time", "0"],
        ["--count", "0"],
        ["--engine", "dnf"],
    ] {
        let o = nonohost(&["tournament", bad[0], bad[1]]);
        assert_eq!(o.status.code(), Some(1), "{bad:?}: {}", stderr(&o));
    }
    // Boards over the probing engine's side go to the clue engine, unless
    // probing is asked for.
    let o = nonohost(&["tournament", "--count", "1", "--size", "33", "--quiet"]);
    assert!(
        stdout(&o).contains("\nboard (the clue engine's"),
        "{}",
        stdout(&o)
    );
    let o = nonohost(&[
        "tournament",
        "--count",
        "1",
        "--size",
        "33",
        "--engine",
        "probing",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("takes boards up to 32x32"), "{}", stderr(&o));
    // A set file: read, or refused with the file and line.
    let dir = std::env::temp_dir().join(format!("nonohost-cli-set-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "$1\r\n1\r\n1\r\n1\r\n1\r\n").unwrap();
    let o = nonohost(&["tournament", "--set", good.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (j["puzzles"].as_u64(), j["board_solved"].as_u64()),
        (Some(1), Some(1))
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "$1\n1\n1\n1\n").unwrap();
    let o = nonohost(&["tournament", "--set", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("bad.txt line 1: puzzle 1 has 3 clue lines"),
        "{}",
        stderr(&o)
    );
    let o = nonohost(&["tournament", "--set", dir.join("missing.txt").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.txt: cannot read"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn completions_and_the_manual_page() {
    let o = nonohost(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("_nonohost()"), "{}", stdout(&o));
    let o = nonohost(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains(".TH nonohost 1"), "{}", stdout(&o));
    assert_eq!(nonohost(&["completions", "cmd.exe"]).status.code(), Some(1));
}

#[test]
fn encode_writes_the_clue_stream_too() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("heart-v2.bin");
    let o = nonohost(&[
        "encode",
        "--engine",
        "clues",
        "--first",
        "-o",
        &out.display().to_string(),
        &example("heart6x7.txt"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let heart = nonohost::Puzzle::load(Path::new(&example("heart6x7.txt"))).unwrap();
    let budget = nonohost::wire::budget_units(nonohost::wire::DEFAULT_BUDGET_CYCLES);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        nonohost::wire::encode_clues(&heart, budget, true)
    );
    // Past the clue engine's 64 a side it is refused, --force or not.
    let mut big = String::from("rows\n");
    big.push_str(&"1\n".repeat(70));
    big.push_str("columns\n");
    big.push_str(&"1\n".repeat(70));
    let big = temp("big70.txt", &big);
    let o = nonohost(&["encode", "--engine", "clues", "--force", "-o", "-", &big]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
}

#[test]
fn refusals_say_what_would_take_the_puzzle() {
    let mut text = String::from("rows\n");
    text.push_str(&"1\n".repeat(40));
    text.push_str("columns\n");
    text.push_str(&"1\n".repeat(40));
    let big = temp("big40.txt", &text);
    let o = nonohost(&["send", "--sim", "--engine", "dnf", &big]);
    assert_eq!(o.status.code(), Some(4));
    assert!(
        stderr(&o).contains("the clue engine takes it: --engine clues"),
        "{}",
        stderr(&o)
    );
}

/// `send` takes many files: each goes to the one simulated board in turn
/// (which switches engines as each puzzle needs), a file that fails to load
/// is reported and the rest still go, and a table sums them up. The exit
/// code is the highest of the puzzles'.
#[test]
fn send_takes_many_files_on_one_link() {
    let o = nonohost(&[
        "send",
        "--sim",
        "--quiet",
        &example("4x4.txt"),
        "/no/such.non",
        &example("heart6x7.txt"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("solved by the board").count(), 2, "{out}");
    assert!(stderr(&o).contains("/no/such.non"), "{}", stderr(&o));
    assert!(out.contains("3 puzzles: 2 solved, 1 other"), "{out}");
    // The table says who decided each: the board, for both.
    let by_board = out
        .lines()
        .filter(|l| l.contains("solved, unique") && l.contains(" board "))
        .count();
    assert_eq!(by_board, 2, "{out}");
    // One simulated board served both: its figures are printed once.
    assert_eq!(out.matches("simulated board (").count(), 1, "{out}");
    let o = nonohost(&[
        "send",
        "--sim",
        "--json",
        &example("4x4.txt"),
        &example("heart6x7.txt"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|j| j["status"] == "solved"));
    // No port: one error, and the rest are not tried.
    let four = example("4x4.txt");
    let o = nonohost(&["send", "--port", "/dev/ttyNOSUCHPORT", &four, &four, &four]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o).matches("does not exist").count(), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 other files were not sent"),
        "{}",
        stderr(&o)
    );
}

/// The probing engine (flash image 2) takes a puzzle that needs search and
/// fits it: the simulated board decides it alone. A board over its 32×32
/// is refused before anything is sent, with the over-capacity exit code.
#[test]
fn the_probing_image_takes_small_clue_boards() {
    let o = nonohost(&["send", "--sim", "--json", &example("several.txt")]);
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["engine"], "probing", "{j}");
    assert_eq!(j["status"], "several_solutions", "{j}");
    assert_eq!(j["solved_by"], "board", "{j}");
    // 33×33, one block a line: too wide for the probing image.
    let line = "33\n".repeat(33);
    let wide = temp("wide33.txt", &format!("rows:\n{line}columns:\n{line}"));
    let o = nonohost(&["send", "--sim", "--engine", "probing", &wide]);
    assert_eq!(o.status.code(), Some(4), "{}{}", stdout(&o), stderr(&o));
    let text = format!("{}{}", stdout(&o), stderr(&o));
    assert!(text.contains("32"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}
