//! Places and routes the colour line solver alone (issue 28), before the
//! engine around it exists, to see what it costs on the HX8K and how fast
//! it runs: logic cells, block RAMs, fmax and the critical path, at the
//! default placement and at each seed asked for.
//!
//! ```sh
//! cargo run --release -p nonogram-bsp --example colour_line_timing -- OUT_DIR [SEEDS]
//! ```
//!
//! The solver's 160-bit ports cannot all go to pins, so a harness feeds
//! them from flip-flops (a shift register filled from one pin) and folds
//! its outputs into one registered pin: every path into and out of the
//! solver starts and ends at a register, as it will inside the engine.
//! The harness's own logic (the shift registers, an XOR of the result) is
//! counted in the cells, a few hundred of them.

use nonogram_bsp::flow::{self, BuildOptions};
use nonogram_hdl::colour::line_solver::{ColourLineSolver, PLANE_BITS};
use rust_hdl::prelude::*;
use std::path::PathBuf;
use std::process::exit;

#[derive(LogicBlock, Default)]
struct Harness {
    clock: Signal<In, Clock>,
    usb_rx: Signal<In, Bit>,
    reset_n: Signal<In, Bit>,
    usb_tx: Signal<Out, Bit>,
    solver: ColourLineSolver,
    cells: DFF<Bits<PLANE_BITS>>,
    line: DFF<Bits<24>>,
    start: DFF<Bit>,
    folded: DFF<Bit>,
}

impl Logic for Harness {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cells, line, start, folded);
        self.solver.clock.next = self.clock.val();
        self.cells.d.next = (self.cells.q.val() << 1) | bit_cast::<PLANE_BITS, 1>(self.usb_rx.val().into());
        self.line.d.next =
            (self.line.q.val() << 1) | bit_cast::<24, 1>(self.cells.q.val().get_bit(159).into());
        self.start.d.next = !self.reset_n.val();
        self.solver.start.next = self.start.q.val();
        self.solver.cells.next = self.cells.q.val();
        self.solver.length.next = self.line.q.val().get_bits::<6>(0);
        self.solver.blocks.next = self.line.q.val().get_bits::<6>(6);
        self.solver.clue_length.next = self.line.q.val().get_bits::<6>(12);
        self.solver.clue_ink.next = self.line.q.val().get_bits::<3>(18);
        self.folded.d.next = self.solver.line.val().xor()
            ^ self.solver.feasible.val()
            ^ self.solver.done.val()
            ^ self.solver.busy.val()
            ^ self.solver.clue_address.val().xor();
        self.usb_tx.next = self.folded.q.val();
    }
}

const PCF: &str = "\
set_io clock P7
set_frequency clock 100
set_io -pullup yes reset_n P8
set_io -pullup yes usb_rx P14
set_io usb_tx M9
";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(out) = args.get(1).map(PathBuf::from) else {
        eprintln!("usage: colour_line_timing OUT_DIR [SEEDS]");
        exit(2);
    };
    let seeds: u64 = match args.get(2).map(|s| s.parse()) {
        None => 0,
        Some(Ok(n)) if n <= 20 => n,
        _ => {
            eprintln!("SEEDS: a number of seeds, 0 to 20");
            exit(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("cannot create {}: {e}", out.display());
        exit(2);
    }
    let pcf = out.join("harness.pcf");
    std::fs::write(&pcf, PCF).expect("write the pin constraints");
    let mut harness = Harness::default();
    harness.connect_all();
    let verilog = generate_verilog(&harness);
    for seed in std::iter::once(None).chain((1..=seeds).map(Some)) {
        let opts = BuildOptions {
            out_dir: match seed {
                None => out.join("default"),
                Some(s) => out.join(format!("seed-{s}")),
            },
            pcf: pcf.clone(),
            freq_mhz: 100.0,
            seed,
            synth_options: "-abc9",
        };
        match flow::build(&verilog, &opts, |_| {}) {
            Ok(result) => {
                let r = &result.report;
                let placement = seed.map_or("default placement".to_string(), |s| format!("seed {s}"));
                println!(
                    "colour line solver and harness, {placement}: {} of {} logic cells, {} block RAMs, {:.2} MHz",
                    r.lcs_used, r.lcs_available, r.brams_used, r.fmax_mhz
                );
                println!("{}", r.critical_path_summary());
            }
            Err(e) => {
                eprintln!("build failed: {e:#}");
                exit(1);
            }
        }
    }
}
