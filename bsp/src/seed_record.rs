//! What nextpnr's placer seeds gave each image's netlist, kept in a file
//! (`bsp/seeds.json`) so that a build with `--seed-record` places seeds
//! again only for a netlist the file does not know.
//!
//! Why a record is sound: nextpnr is deterministic. The same netlist
//! (`top.json`, which names the yosys that wrote it), pin constraints,
//! clock, nextpnr version and seed give the same placement and the same
//! fmax, so placing the seeds of an unchanged netlist again measures
//! nothing new (on the project's 2-core machine it was most of CI's time).
//! An entry is used only when all of those match, and when the default
//! placement the build has just made reports the very fmax the entry
//! recorded: a check, each time, that nextpnr really gave the same result.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the seeds' results depend on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// SHA-256 of the netlist, yosys's `top.json`.
    pub netlist_sha256: String,
    /// SHA-256 of the pin constraints.
    pub pcf_sha256: String,
    /// `nextpnr-ice40 --version`.
    pub nextpnr: String,
    pub clock_mhz: f64,
}

impl Placement {
    /// Reads what a build in `dir` placed: its `top.json`, the pcf, and the
    /// nextpnr on PATH.
    pub fn of_build(dir: &Path, pcf: &Path, clock_mhz: f64) -> Result<Placement> {
        let netlist = dir.join("top.json");
        let netlist =
            std::fs::read(&netlist).with_context(|| format!("cannot read {}", netlist.display()))?;
        let pcf = std::fs::read(pcf).with_context(|| format!("cannot read {}", pcf.display()))?;
        let version = Command::new("nextpnr-ice40")
            .arg("--version")
            .output()
            .context("cannot run nextpnr-ice40 --version")?;
        let mut nextpnr = String::from_utf8_lossy(&version.stdout).into_owned();
        nextpnr += &String::from_utf8_lossy(&version.stderr);
        Ok(Placement {
            netlist_sha256: sha256(&netlist),
            pcf_sha256: sha256(&pcf),
            nextpnr: nextpnr.trim().to_string(),
            clock_mhz,
        })
    }
}

/// One image's entry: the placement, its default fmax, and seeds 1..=N's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    #[serde(flatten)]
    pub placement: Placement,
    pub default_fmax_mhz: f64,
    pub seeds_fmax_mhz: Vec<f64>,
}

/// The record file: an entry an image, by the image's name.
#[derive(Debug)]
pub struct SeedRecord {
    path: PathBuf,
    entries: BTreeMap<String, Entry>,
}

impl SeedRecord {
    /// Reads `path`; a file that does not exist yet is an empty record.
    pub fn open(path: &Path) -> Result<SeedRecord> {
        let entries = match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .with_context(|| format!("{}: not a seed record (JSON: image -> entry)", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        Ok(SeedRecord {
            path: path.to_path_buf(),
            entries,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Seeds 1..=`seeds`' fmax for `image`, if the record has them for this
    /// very placement and its default placement gave `default_fmax_mhz`
    /// (as nextpnr's report rounds it, to 0.01 MHz).
    pub fn recalled(
        &self,
        image: &str,
        placement: &Placement,
        default_fmax_mhz: f64,
        seeds: usize,
    ) -> Option<&[f64]> {
        let entry = self.entries.get(image)?;
        (entry.placement == *placement
            && round(entry.default_fmax_mhz) == round(default_fmax_mhz)
            && entry.seeds_fmax_mhz.len() == seeds)
            .then_some(entry.seeds_fmax_mhz.as_slice())
    }

    /// Records `image`'s seeds and writes the file.
    pub fn record(
        &mut self,
        image: &str,
        placement: Placement,
        default_fmax_mhz: f64,
        seeds_fmax_mhz: &[f64],
    ) -> Result<()> {
        let entry = Entry {
            placement,
            default_fmax_mhz: round(default_fmax_mhz),
            seeds_fmax_mhz: seeds_fmax_mhz.iter().map(|&f| round(f)).collect(),
        };
        self.entries.insert(image.to_string(), entry);
        let text = serde_json::to_string_pretty(&self.entries)? + "\n";
        std::fs::write(&self.path, text).with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// To 0.01 MHz, as the build prints and records fmax.
fn round(mhz: f64) -> f64 {
    (mhz * 100.0).round() / 100.0
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement(netlist: &str) -> Placement {
        Placement {
            netlist_sha256: sha256(netlist.as_bytes()),
            pcf_sha256: sha256(b"pcf"),
            nextpnr: "nextpnr-ice40 -- Next Generation Place and Route (Version 0.4)".into(),
            clock_mhz: 100.0,
        }
    }

    #[test]
    fn recalls_only_the_same_placement_with_the_same_default_fmax() {
        let dir = std::env::temp_dir().join(format!("nonogram-seed-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("seeds.json");
        let _ = std::fs::remove_file(&path);
        let mut record = SeedRecord::open(&path).unwrap();
        assert_eq!(record.recalled("clues", &placement("a"), 101.0, 5), None);
        record
            .record(
                "clues",
                placement("a"),
                101.004,
                &[100.5, 102.0, 103.0, 104.0, 105.0],
            )
            .unwrap();

        // Read back from the file, as the next build would.
        let record = SeedRecord::open(&path).unwrap();
        let seeds = [100.5, 102.0, 103.0, 104.0, 105.0];
        assert_eq!(
            record.recalled("clues", &placement("a"), 101.0, 5),
            Some(&seeds[..])
        );
        // Another netlist, another default fmax, another count of seeds, another image.
        assert_eq!(record.recalled("clues", &placement("b"), 101.0, 5), None);
        assert_eq!(record.recalled("clues", &placement("a"), 101.02, 5), None);
        assert_eq!(record.recalled("clues", &placement("a"), 101.0, 3), None);
        assert_eq!(record.recalled("dnf", &placement("a"), 101.0, 5), None);
        let mut other_tool = placement("a");
        other_tool.nextpnr += "-dirty";
        assert_eq!(record.recalled("clues", &other_tool, 101.0, 5), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_is_not_a_record_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("nonogram-seed-record-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("seeds.json");
        std::fs::write(&path, "[1, 2").unwrap();
        let err = format!("{:#}", SeedRecord::open(&path).unwrap_err());
        assert!(
            err.contains("seeds.json") && err.contains("not a seed record"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
