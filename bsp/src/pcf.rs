//! The hand-written pin constraints (`constraints/alchitry_cu.pcf`) and their
//! check against the top level's ports.
//!
//! RustHDL names the top module `top` and each top-level port after its
//! field (`clock`, `reset_n`, `usb_rx`, `usb_tx`, `leds`); yosys and
//! nextpnr name the bits of a bus `leds[0]`..`leds[7]` and a one-bit port by
//! its bare name. [`check_pcf`] checks that every port bit has exactly one
//! `set_io`, that no `set_io` names something that is not a port (a renamed
//! port would otherwise leave its pin floating, or fail only in nextpnr), that
//! no pad is used twice, and that `set_frequency` names a clock input.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The pcf the build uses, relative to the workspace root.
pub const PCF_PATH: &str = "constraints/alchitry_cu.pcf";

/// The pcf's text, as compiled in.
pub const PCF_TEXT: &str = include_str!("../../constraints/alchitry_cu.pcf");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
    InOut,
}

/// A port of the emitted `module top`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub direction: Direction,
    pub width: usize,
}

impl Port {
    /// The names nextpnr gives this port's bits.
    pub fn bit_names(&self) -> Vec<String> {
        if self.width == 1 {
            vec![self.name.clone()]
        } else {
            (0..self.width).map(|i| format!("{}[{}]", self.name, i)).collect()
        }
    }
}

/// The ports of `module top` in RustHDL's Verilog, in declaration order.
pub fn top_ports(verilog: &str) -> Result<Vec<Port>, String> {
    let start = verilog
        .find("module top(")
        .ok_or("no `module top(` in the Verilog")?;
    let rest = &verilog[start + "module top(".len()..];
    let close = rest.find(')').ok_or("unterminated port list of `top`")?;
    let names: Vec<String> = rest[..close]
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let body = &rest[close..rest.find("endmodule").ok_or("no endmodule after top")?];
    let mut decls = BTreeMap::new();
    for line in body.lines() {
        let line = line.trim().trim_end_matches(';');
        let mut tokens = line.split_whitespace().peekable();
        let direction = match tokens.peek() {
            Some(&"input") => Direction::Input,
            Some(&"output") => Direction::Output,
            Some(&"inout") => Direction::InOut,
            _ => continue,
        };
        let mut width = 1;
        let mut name = None;
        for token in tokens.skip(1) {
            if matches!(token, "wire" | "reg" | "signed") {
                continue;
            }
            if let Some(range) = token.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                let (hi, lo) = range
                    .split_once(':')
                    .ok_or_else(|| format!("bad range in `{line}`"))?;
                let hi: usize = hi.parse().map_err(|_| format!("bad range in `{line}`"))?;
                let lo: usize = lo.parse().map_err(|_| format!("bad range in `{line}`"))?;
                width = hi.abs_diff(lo) + 1;
                continue;
            }
            name = Some(token.to_string());
        }
        let name = name.ok_or_else(|| format!("no name in `{line}`"))?;
        decls.insert(name, (direction, width));
    }
    names
        .into_iter()
        .map(|name| {
            let (direction, width) = *decls
                .get(&name)
                .ok_or_else(|| format!("port `{name}` of top is not declared"))?;
            Ok(Port {
                name,
                direction,
                width,
            })
        })
        .collect()
}

/// One `set_io`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoConstraint {
    /// The port bit, as nextpnr names it (`usb_tx`, `leds[3]`).
    pub signal: String,
    pub pad: String,
    /// Options before the name (`-nowarn`, `-pullup yes`, ...).
    pub options: Vec<String>,
    /// 1-based line in the pcf (0 for a generated pcf).
    pub line: usize,
}

/// One `set_frequency`.
#[derive(Clone, Debug, PartialEq)]
pub struct Frequency {
    pub net: String,
    pub mhz: f64,
    pub line: usize,
}

/// A parsed pcf.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pcf {
    pub ios: Vec<IoConstraint>,
    pub frequencies: Vec<Frequency>,
}

/// A problem in a pcf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcfError(pub String);

impl fmt::Display for PcfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses the subset of the pcf language nextpnr-ice40 reads: `set_io
/// [options] signal pad` and `set_frequency net MHz`; `#` starts a comment.
/// Anything else is an error.
pub fn parse_pcf(text: &str) -> Result<Pcf, PcfError> {
    let mut pcf = Pcf::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let code = raw.split('#').next().unwrap_or("").trim();
        if code.is_empty() {
            continue;
        }
        let words: Vec<&str> = code.split_whitespace().collect();
        match words[0] {
            "set_io" => {
                // Options: -nowarn takes no value; -pullup, -pullup_resistor
                // and -io_std take one.
                let mut k = 1;
                let mut options = vec![];
                while k < words.len() && words[k].starts_with('-') {
                    let takes_value = matches!(words[k], "-pullup" | "-pullup_resistor" | "-io_std");
                    if takes_value {
                        let value = words
                            .get(k + 1)
                            .ok_or_else(|| PcfError(format!("line {line}: {} needs a value", words[k])))?;
                        options.push(format!("{} {}", words[k], value));
                        k += 2;
                    } else if words[k] == "-nowarn" {
                        options.push(words[k].to_string());
                        k += 1;
                    } else {
                        return Err(PcfError(format!(
                            "line {line}: unknown set_io option {}",
                            words[k]
                        )));
                    }
                }
                if words.len() != k + 2 {
                    return Err(PcfError(format!(
                        "line {line}: expected `set_io [options] signal pad`, got `{code}`"
                    )));
                }
                pcf.ios.push(IoConstraint {
                    signal: words[k].to_string(),
                    pad: words[k + 1].to_string(),
                    options,
                    line,
                });
            }
            "set_frequency" => {
                if words.len() != 3 {
                    return Err(PcfError(format!(
                        "line {line}: expected `set_frequency net MHz`, got `{code}`"
                    )));
                }
                let mhz: f64 = words[2]
                    .parse()
                    .map_err(|_| PcfError(format!("line {line}: `{}` is not a frequency", words[2])))?;
                pcf.frequencies.push(Frequency {
                    net: words[1].to_string(),
                    mhz,
                    line,
                });
            }
            other => return Err(PcfError(format!("line {line}: unknown pcf command `{other}`"))),
        }
    }
    Ok(pcf)
}

/// Checks `pcf` against the top level's `ports`; returns every problem found
/// (empty: the pcf is right).
pub fn check_pcf(pcf: &Pcf, ports: &[Port]) -> Vec<String> {
    let mut problems = vec![];
    let bits: BTreeSet<String> = ports.iter().flat_map(|p| p.bit_names()).collect();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut pads: BTreeMap<&str, &str> = BTreeMap::new();
    for io in &pcf.ios {
        if !bits.contains(&io.signal) {
            problems.push(format!(
                "line {}: set_io {} {}: top has no port bit `{}` (its ports: {})",
                io.line,
                io.signal,
                io.pad,
                io.signal,
                bits.iter().cloned().collect::<Vec<_>>().join(" ")
            ));
        }
        if let Some(prev) = seen.insert(&io.signal, io.line) {
            problems.push(format!(
                "line {}: `{}` is already constrained on line {prev}",
                io.line, io.signal
            ));
        }
        if let Some(other) = pads.insert(&io.pad, &io.signal) {
            problems.push(format!(
                "line {}: pad {} is used by both `{other}` and `{}`",
                io.line, io.pad, io.signal
            ));
        }
    }
    for bit in &bits {
        if !seen.contains_key(bit.as_str()) {
            problems.push(format!(
                "port bit `{bit}` of top has no set_io: it would not reach a pin"
            ));
        }
    }
    if pcf.frequencies.is_empty() {
        problems.push("no set_frequency: nextpnr would check only its 12 MHz default".into());
    }
    for f in &pcf.frequencies {
        match ports.iter().find(|p| p.name == f.net) {
            Some(p) if p.direction == Direction::Input && p.width == 1 => {}
            _ => problems.push(format!(
                "line {}: set_frequency names `{}`, which is not a one-bit input of top",
                f.line, f.net
            )),
        }
    }
    problems
}

/// Compares the hand-written pcf's pads with those the RustHDL top level
/// declares on its signals (`generate_pcf`); returns every difference.
pub fn compare_pads(pcf: &Pcf, declared: &Pcf) -> Vec<String> {
    let written: BTreeMap<&str, &str> = pcf
        .ios
        .iter()
        .map(|io| (io.signal.as_str(), io.pad.as_str()))
        .collect();
    let wanted: BTreeMap<&str, &str> = declared
        .ios
        .iter()
        .map(|io| (io.signal.as_str(), io.pad.as_str()))
        .collect();
    let mut problems = vec![];
    for (signal, pad) in &wanted {
        match written.get(signal) {
            Some(p) if p == pad => {}
            Some(p) => problems.push(format!(
                "`{signal}` is on pad {p} in the pcf, but the top level declares pad {pad}"
            )),
            None => problems.push(format!(
                "`{signal}` (pad {pad} in the top level) is missing from the pcf"
            )),
        }
    }
    for (signal, pad) in &written {
        if !wanted.contains_key(signal) {
            problems.push(format!(
                "`{signal}` is on pad {pad} in the pcf, but the top level declares no pad for it"
            ));
        }
    }
    problems
}

/// The clock the pcf constrains, in MHz (the highest `set_frequency`).
pub fn constrained_mhz(pcf: &Pcf) -> Option<f64> {
    pcf.frequencies.iter().map(|f| f.mhz).reduce(f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERILOG: &str = "\
module top(clock,reset_n,leds);
    input wire  clock;
    input wire  reset_n;
    output reg  [7:0] leds;
    reg  x$y;
endmodule // top

module top$x(a);
    input wire [3:0] a;
endmodule
";

    #[test]
    fn ports_are_parsed() {
        let ports = top_ports(VERILOG).unwrap();
        assert_eq!(ports.len(), 3);
        assert_eq!(ports[0].name, "clock");
        assert_eq!(ports[2].width, 8);
        assert_eq!(ports[2].direction, Direction::Output);
        assert_eq!(ports[2].bit_names()[7], "leds[7]");
    }

    fn pcf_for(leds: usize) -> String {
        let mut text = String::from("set_io clock P7\nset_io -pullup yes reset_n P8 # button\n");
        for i in 0..leds {
            text += &format!("set_io leds[{i}] X{i}\n");
        }
        text + "set_frequency clock 100\n"
    }

    /// Both inputs from outside idle high through a pull-up: the reset button,
    /// and the UART line when the cable is out.
    #[test]
    fn the_boards_inputs_have_pull_ups() {
        let pcf = parse_pcf(PCF_TEXT).unwrap();
        for input in ["reset_n", "usb_rx"] {
            let io = pcf.ios.iter().find(|io| io.signal == input).expect(input);
            assert_eq!(io.options, vec!["-pullup yes"], "{input} in {PCF_PATH}");
        }
    }

    #[test]
    fn a_complete_pcf_passes() {
        let pcf = parse_pcf(&pcf_for(8)).unwrap();
        assert_eq!(pcf.ios[1].options, vec!["-pullup yes"]);
        assert_eq!(
            check_pcf(&pcf, &top_ports(VERILOG).unwrap()),
            Vec::<String>::new()
        );
        assert_eq!(constrained_mhz(&pcf), Some(100.0));
    }

    #[test]
    fn a_missing_bit_a_renamed_port_and_a_shared_pad_fail() {
        let ports = top_ports(VERILOG).unwrap();
        let problems = check_pcf(&parse_pcf(&pcf_for(7)).unwrap(), &ports);
        assert!(problems.iter().any(|p| p.contains("leds[7]")), "{problems:?}");
        let renamed = pcf_for(8).replace("reset_n", "rst_n");
        let problems = check_pcf(&parse_pcf(&renamed).unwrap(), &ports);
        assert!(
            problems.iter().any(|p| p.contains("no port bit `rst_n`")),
            "{problems:?}"
        );
        assert!(problems
            .iter()
            .any(|p| p.contains("`reset_n` of top has no set_io")));
        let shared = pcf_for(8).replace("X3", "X2");
        let problems = check_pcf(&parse_pcf(&shared).unwrap(), &ports);
        assert!(problems.iter().any(|p| p.contains("pad X2")), "{problems:?}");
        let unclocked = pcf_for(8).replace("set_frequency clock 100", "");
        assert!(!check_pcf(&parse_pcf(&unclocked).unwrap(), &ports).is_empty());
    }

    #[test]
    fn bad_syntax_is_refused() {
        assert!(parse_pcf("set_io clock").is_err());
        assert!(parse_pcf("set_location x 1 2 3").is_err());
        assert!(parse_pcf("set_frequency clock fast").is_err());
        assert!(parse_pcf("set_io -weird clock P7").is_err());
    }
}
