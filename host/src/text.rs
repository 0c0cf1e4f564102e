//! Counts and sizes in words, for every report and error message.

/// A count and its noun, singular or plural: "1 pass", "2 passes".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A puzzle's size in sentences: "7 columns x 6 rows", "1 column x 1 row".
pub fn size_text(width: usize, height: usize) -> String {
    format!(
        "{} x {}",
        plural(width as u64, "column", "columns"),
        plural(height as u64, "row", "rows")
    )
}
