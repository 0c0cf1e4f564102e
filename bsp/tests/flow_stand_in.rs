//! The synthesis flow, run on the stand-in top level (board glue and a UART
//! loopback: small enough to place and route in a few seconds). Needs yosys,
//! nextpnr-ice40 and icepack on PATH.

mod common;

use nonogram_bsp::flow::{build, BuildOptions};
use nonogram_bsp::pcf::*;
use rust_hdl::prelude::*;
use std::path::PathBuf;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nonogram-bsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn pcf_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(PCF_PATH)
}

fn options(name: &str) -> BuildOptions {
    BuildOptions {
        out_dir: out_dir(name),
        pcf: pcf_path(),
        freq_mhz: 100.0,
        seed: None,
        synth_options: "",
    }
}

#[test]
fn the_stand_in_matches_the_pcf() {
    let top = common::stand_in();
    let ports = top_ports(&generate_verilog(&top)).unwrap();
    let pcf = parse_pcf(PCF_TEXT).unwrap();
    assert_eq!(check_pcf(&pcf, &ports), Vec::<String>::new());
    let declared = parse_pcf(&rust_hdl::fpga::toolchains::icestorm::generate_pcf(&top)).unwrap();
    assert_eq!(compare_pads(&pcf, &declared), Vec::<String>::new());
}

#[test]
fn the_stand_in_builds_at_100_mhz() {
    if !nonogram_bsp::flow::tools_for_tests("the_stand_in_builds_at_100_mhz") {
        return;
    }
    let opts = options("ok");
    let result = build(&generate_verilog(&common::stand_in()), &opts, |_| {}).unwrap();
    let r = &result.report;
    assert!(r.meets_timing(), "{r}");
    assert_eq!(r.constraint_mhz, 100.0);
    assert_eq!((r.lcs_available, r.brams_available), (7680, 32));
    assert!(r.lcs_used > 20 && r.lcs_used < 400, "{r}");
    let size = std::fs::metadata(&result.bin).unwrap().len();
    assert!(size > 100_000);
    // Two images in one flash: icemulti's header of warm-boot jumps (the
    // power-up one to image 0, then images 0..3), then both images whole.
    // (icemulti packs a file named twice only once: hence a copy.)
    let flash = opts.out_dir.join("flash.bin");
    let copy = opts.out_dir.join("copy.bin");
    std::fs::copy(&result.bin, &copy).unwrap();
    let bytes = nonogram_bsp::flow::pack_flash(&[result.bin.clone(), copy], &flash).unwrap();
    let packed = std::fs::read(&flash).unwrap();
    assert_eq!(packed.len() as u64, bytes);
    assert!(bytes >= 2 * size, "{bytes} bytes for two images of {size}");
    let image = std::fs::read(&result.bin).unwrap();
    let jump = |applet: usize| {
        let at = 32 * applet;
        assert_eq!(
            packed[at..at + 4],
            [0x7e, 0xaa, 0x99, 0x7e],
            "applet {applet}'s preamble"
        );
        // `44 03` and a 24-bit address: where that image starts.
        assert_eq!(
            packed[at + 7..at + 9],
            [0x44, 0x03],
            "applet {applet}'s address command"
        );
        u32::from_be_bytes([0, packed[at + 9], packed[at + 10], packed[at + 11]]) as usize
    };
    let (first, second) = (jump(1), jump(2));
    assert_eq!(jump(0), first, "power-up boots image 0");
    assert_eq!(
        packed[first..first + image.len()],
        image[..],
        "image 0 at its address"
    );
    assert_eq!(
        packed[second..second + image.len()],
        image[..],
        "image 1 at its address"
    );
    assert!(nonogram_bsp::flow::pack_flash(&[], &flash).is_err());
    let _ = std::fs::remove_dir_all(&opts.out_dir);
}

#[test]
fn a_missed_clock_fails_with_the_critical_path() {
    if !nonogram_bsp::flow::tools_for_tests("a_missed_clock_fails_with_the_critical_path") {
        return;
    }
    // The stand-in reaches about 140 MHz; ask for 400.
    let mut opts = options("slow");
    std::fs::create_dir_all(&opts.out_dir).unwrap();
    let fast = opts.out_dir.join("fast.pcf");
    std::fs::write(
        &fast,
        PCF_TEXT.replace("set_frequency clock 100", "set_frequency clock 400"),
    )
    .unwrap();
    opts.pcf = fast;
    opts.freq_mhz = 400.0;
    let err = build(&generate_verilog(&common::stand_in()), &opts, |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("short of the 400"), "{err}");
    assert!(err.contains("critical path"), "{err}");
    assert!(!opts.out_dir.join("top.bin").exists());
    assert!(!opts.out_dir.join("top.asc").exists());
    let _ = std::fs::remove_dir_all(&opts.out_dir);
}

#[test]
fn a_failing_tool_shows_its_own_message() {
    if !nonogram_bsp::flow::tools_for_tests("a_failing_tool_shows_its_own_message") {
        return;
    }
    // A pad that does not exist on the CB132: nextpnr refuses the pcf.
    let dir = out_dir("badpcf");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.pcf");
    std::fs::write(&bad, PCF_TEXT.replace("set_io usb_tx M9", "set_io usb_tx Z99")).unwrap();
    let opts = BuildOptions {
        pcf: bad,
        ..options("badpcf-out")
    };
    let err = build(&generate_verilog(&common::stand_in()), &opts, |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("nextpnr-ice40 failed"), "{err}");
    assert!(err.contains("Z99"), "{err}");
    // Broken Verilog: yosys's own error.
    let err = build(
        "module top(a); input a; assign b = ; endmodule",
        &options("badv"),
        |_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("yosys failed") && err.contains("ERROR"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&opts.out_dir);
}

#[test]
fn a_pcf_asking_less_than_100_mhz_is_refused() {
    if !nonogram_bsp::flow::tools_for_tests("a_pcf_asking_less_than_100_mhz_is_refused") {
        return;
    }
    let mut opts = options("lowpcf");
    std::fs::create_dir_all(&opts.out_dir).unwrap();
    let low = opts.out_dir.join("low.pcf");
    std::fs::write(
        &low,
        PCF_TEXT.replace("set_frequency clock 100", "set_frequency clock 12"),
    )
    .unwrap();
    opts.pcf = low;
    let err = build(&generate_verilog(&common::stand_in()), &opts, |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("asks less than the 100 MHz"), "{err}");
    let _ = std::fs::remove_dir_all(&opts.out_dir);
}
