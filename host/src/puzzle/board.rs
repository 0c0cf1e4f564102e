//! The project's own board.txt: a `rows:` and a `columns:` section.

use super::{parse_clue, strip_comment, Errors, ParseError, Puzzle};

/// The project's board.txt: see README-host.md.
pub fn parse(file: &str, text: &str) -> Result<Puzzle, ParseError> {
    let e = Errors { file };
    #[derive(PartialEq)]
    enum Section {
        None,
        Rows,
        Columns,
    }
    let mut section = Section::None;
    let mut rows = Vec::new();
    let mut columns = Vec::new();
    let mut row_at = Vec::new();
    let mut column_at = Vec::new();
    let mut seen = (0usize, 0usize);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let header = line.strip_suffix(':').unwrap_or(line).trim().to_ascii_lowercase();
        match header.as_str() {
            "rows" => {
                if seen.0 != 0 {
                    return Err(e.at(
                        n,
                        format!("a second 'rows' section (the first is on line {})", seen.0),
                    ));
                }
                seen.0 = n;
                section = Section::Rows;
                continue;
            }
            "columns" => {
                if seen.1 != 0 {
                    return Err(e.at(
                        n,
                        format!("a second 'columns' section (the first is on line {})", seen.1),
                    ));
                }
                seen.1 = n;
                section = Section::Columns;
                continue;
            }
            _ => {}
        }
        let clue = parse_clue(line, &e, n)?;
        match section {
            Section::None => {
                return Err(e.at(
                    n,
                    format!("'{line}' comes before any 'rows:' or 'columns:' header"),
                ));
            }
            Section::Rows => {
                rows.push(clue);
                row_at.push(n);
            }
            Section::Columns => {
                columns.push(clue);
                column_at.push(n);
            }
        }
    }
    if seen.0 == 0 {
        return Err(e.at(0, "no 'rows:' section"));
    }
    if seen.1 == 0 {
        return Err(e.at(0, "no 'columns:' section"));
    }
    if rows.is_empty() {
        return Err(e.at(seen.0, "the 'rows:' section is empty"));
    }
    if columns.is_empty() {
        return Err(e.at(seen.1, "the 'columns:' section is empty"));
    }
    Ok(Puzzle {
        name: file.to_string(),
        title: None,
        rows,
        columns,
        lines: row_at.into_iter().chain(column_at).collect(),
        picture: None,
        goal: None,
    })
}
