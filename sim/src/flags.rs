//! Value parsers for numeric command-line flags (nonosim's and nonohost's),
//! so that a value out of range is a usage error when the command line is
//! parsed, never a panic or a hang later.

/// Most seconds a time flag takes: a year, so that any clock arithmetic on
/// it stays far from overflow.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// Seconds: a finite number above zero, at most [`MAX_SECONDS`].
pub fn positive_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!("`{text}`: seconds must be finite and above 0"));
    }
    if seconds > MAX_SECONDS {
        return Err(format!("`{text}`: at most {MAX_SECONDS} seconds (a year)"));
    }
    Ok(seconds)
}

/// A probability: a finite number from 0 to 1.
pub fn probability(text: &str) -> Result<f64, String> {
    let p: f64 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("`{text}`: a probability is from 0 to 1"));
    }
    Ok(p)
}

/// A relative clock error of the simulated host: finite, under 25 % either way.
pub fn rate_error(text: &str) -> Result<f64, String> {
    let e: f64 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if !(e.is_finite() && e.abs() < 0.25) {
        return Err(format!("`{text}`: the rate error must be between -0.25 and 0.25"));
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_would_panic_or_hang() {
        for bad in ["0", "-1", "inf", "NaN", "x", "", "1e300"] {
            assert!(positive_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(positive_seconds("0.5"), Ok(0.5));
        assert!(probability("1.5").is_err() && probability("nan").is_err());
        assert_eq!(probability("0"), Ok(0.0));
        assert!(rate_error("inf").is_err() && rate_error("0.3").is_err());
        assert_eq!(rate_error("-0.03"), Ok(-0.03));
    }
}
