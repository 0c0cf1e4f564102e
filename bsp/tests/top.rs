//! The product's top level against the hand-written pin constraints.

use nonogram_bsp::pcf::*;
use nonogram_bsp::top::{clocks_per_bit, declared_pcf, top_verilog, Engine};

fn verilog() -> String {
    top_verilog(clocks_per_bit(9600), Engine::Dnf).unwrap()
}

fn clue_verilog() -> String {
    top_verilog(clocks_per_bit(9600), Engine::Clues).unwrap()
}

#[test]
fn the_board_divisor_is_10417_clocks_per_bit_at_9600_baud() {
    assert_eq!(clocks_per_bit(9600), 10417);
    assert_eq!(clocks_per_bit(115_200), 868);
}

#[test]
fn both_tops_have_the_board_ports() {
    assert_eq!(
        top_ports(&verilog()).unwrap(),
        top_ports(&clue_verilog()).unwrap()
    );
    let ports = top_ports(&verilog()).unwrap();
    let names: Vec<(&str, Direction, usize)> = ports
        .iter()
        .map(|p| (p.name.as_str(), p.direction, p.width))
        .collect();
    assert_eq!(
        names,
        vec![
            ("clock", Direction::Input, 1),
            ("reset_n", Direction::Input, 1),
            ("usb_rx", Direction::Input, 1),
            ("usb_tx", Direction::Output, 1),
            ("leds", Direction::Output, 8),
        ]
    );
}

#[test]
fn the_pcf_constrains_every_port_of_the_top_and_nothing_else() {
    let ports = top_ports(&verilog()).unwrap();
    let pcf = parse_pcf(PCF_TEXT).unwrap();
    let problems = check_pcf(&pcf, &ports);
    assert!(
        problems.is_empty(),
        "constraints/alchitry_cu.pcf:\n{}",
        problems.join("\n")
    );
    assert_eq!(constrained_mhz(&pcf), Some(100.0));
}

#[test]
fn the_pcf_pads_are_those_the_top_declares() {
    let pcf = parse_pcf(PCF_TEXT).unwrap();
    let declared = parse_pcf(&declared_pcf()).unwrap();
    assert_eq!(declared.ios.len(), 12);
    let problems = compare_pads(&pcf, &declared);
    assert!(
        problems.is_empty(),
        "constraints/alchitry_cu.pcf:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_pcf_file_on_disk_is_the_one_compiled_in() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(PCF_PATH);
    assert_eq!(std::fs::read_to_string(path).unwrap(), PCF_TEXT);
}

#[test]
fn the_top_verilog_passes_yosys_checks() {
    if !nonogram_bsp::flow::tools_for_tests("the_top_verilog_passes_yosys_checks") {
        return;
    }
    rust_hdl::core::yosys::yosys_validate("nonogram_bsp_top", &verilog()).unwrap();
    rust_hdl::core::yosys::yosys_validate("nonogram_bsp_clue_top", &clue_verilog()).unwrap();
}
