//! The command samples in the README and README-host (```console blocks)
//! run as tests, from the workspace root as the documents show them, so a
//! stale sample fails CI. `[..]` stands for figures that change between runs.
//!
//! A sample whose command exits non-zero says so in an HTML comment before
//! its block, `<!-- exit 3: nonohost solve examples/several.txt -->`, which
//! a reader does not see; the test gives trycmd its `? 3` line, which
//! would otherwise show in the document as a stray line.

use std::path::Path;

/// The document with each commented exit status as trycmd's `? N` line
/// after its command.
fn with_exit_statuses(document: &str) -> String {
    let mut statuses: Vec<(String, String)> = vec![];
    let mut out = String::new();
    for line in document.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(rest) = line
            .strip_prefix("<!-- exit ")
            .and_then(|r| r.strip_suffix(" -->"))
        {
            let (code, command) = rest.split_once(": ").expect("<!-- exit N: COMMAND -->");
            statuses.push((format!("$ {command}"), code.to_string()));
        } else if let Some(i) = statuses.iter().position(|(command, _)| command == line) {
            out.push_str(&format!("? {}\n", statuses.remove(i).1));
        }
    }
    assert!(
        statuses.is_empty(),
        "exit comments with no such command: {statuses:?}"
    );
    out
}

#[test]
fn readme_samples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::set_current_dir(&root).expect("the workspace root");
    let checked = Path::new(env!("CARGO_TARGET_TMPDIR")).join("README-host.md");
    let host = std::fs::read_to_string("host/README-host.md").expect("host/README-host.md");
    std::fs::write(&checked, with_exit_statuses(&host)).expect("a copy to check");
    trycmd::TestCases::new()
        .register_bin("nonohost", trycmd::cargo::cargo_bin!("nonohost"))
        .case("README.md")
        .case(&checked);
}

#[test]
fn exit_comments_become_status_lines() {
    let document = "<!-- exit 3: nonohost solve a.txt -->\n```console\n$ nonohost info a.txt\nx\n$ nonohost solve a.txt\ny\n```\n";
    let checked = with_exit_statuses(document);
    assert!(checked.contains("$ nonohost solve a.txt\n? 3\ny\n"), "{checked}");
    assert!(checked.contains("$ nonohost info a.txt\nx\n"), "{checked}");
}
