//! Emits the Verilog of one block of the clue engine behind a serial probe
//! (every input from a shift register fed by one pin, every output folded
//! into one pin), so that nextpnr can place and time it on the HX8K alone:
//!
//! ```sh
//! cargo run --release -p nonogram-hdl --example probe -- line-solver > top.v   # or clue-engine
//! yosys -p "synth_ice40 -top top -json top.json" top.v
//! nextpnr-ice40 --hx8k --package cb132 --freq 100 --json top.json --pcf-allow-unconstrained
//! ```

use nonogram_hdl::clue::line_solver::LineSolver;
use nonogram_hdl::clue::solver::ClueSolver;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
struct LineSolverProbe {
    clock: Signal<In, Clock>,
    serial_in: Signal<In, Bit>,
    serial_out: Signal<Out, Bit>,
    inputs: DFF<Bits<150>>,
    outputs: DFF<Bits<64>>,
    solver: LineSolver,
}

impl Logic for LineSolverProbe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, inputs, outputs);
        self.solver.clock.next = self.clock.val();
        self.inputs.d.next = (self.inputs.q.val() << 1) | bit_cast::<150, 1>(self.serial_in.val().into());
        self.solver.known.next = self.inputs.q.val().get_bits::<64>(0);
        self.solver.value.next = self.inputs.q.val().get_bits::<64>(64);
        self.solver.length.next = self.inputs.q.val().get_bits::<7>(128);
        self.solver.blocks.next = self.inputs.q.val().get_bits::<6>(135);
        self.solver.clue_length.next =
            self.inputs.q.val().get_bits::<7>(141) ^ bit_cast::<7, 5>(self.solver.clue_address.val());
        self.solver.start.next = self.inputs.q.val().get_bit(149);
        self.outputs.d.next = (self.outputs.q.val() << 1)
            ^ self.solver.can_fill.val()
            ^ self.solver.can_empty.val()
            ^ bit_cast::<64, 1>(self.solver.done.val().into());
        self.serial_out.next = self.outputs.q.val().get_bit(63);
    }
}

#[derive(LogicBlock, Default)]
struct ClueEngineProbe {
    clock: Signal<In, Clock>,
    serial_in: Signal<In, Bit>,
    serial_out: Signal<Out, Bit>,
    inputs: DFF<Bits<81>>,
    outputs: DFF<Bits<64>>,
    engine: ClueSolver,
}

impl Logic for ClueEngineProbe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, inputs, outputs);
        self.engine.clock.next = self.clock.val();
        self.inputs.d.next = (self.inputs.q.val() << 1) | bit_cast::<81, 1>(self.serial_in.val().into());
        self.engine.abort.next = self.inputs.q.val().get_bit(0);
        self.engine.start.next = self.inputs.q.val().get_bit(1);
        self.engine.rows.next = self.inputs.q.val().get_bits::<7>(2);
        self.engine.columns.next = self.inputs.q.val().get_bits::<7>(9);
        self.engine.clue_write.next = self.inputs.q.val().get_bit(16);
        self.engine.clue_address.next = self.inputs.q.val().get_bits::<11>(17);
        self.engine.clue_length.next = self.inputs.q.val().get_bits::<7>(28);
        self.engine.line_write.next = self.inputs.q.val().get_bit(35);
        self.engine.line_number.next = self.inputs.q.val().get_bits::<7>(36);
        self.engine.line_first.next = self.inputs.q.val().get_bits::<11>(43);
        self.engine.line_blocks.next = self.inputs.q.val().get_bits::<6>(54);
        self.engine.read_row.next = self.inputs.q.val().get_bits::<6>(60);
        self.engine.read_value.next = self.inputs.q.val().get_bit(66);
        self.engine.first_only.next = self.inputs.q.val().get_bit(67);
        self.engine.budget.next = self.inputs.q.val().get_bits::<12>(68);
        self.engine.read_differs.next = self.inputs.q.val().get_bit(80);
        self.outputs.d.next = (self.outputs.q.val() << 1)
            ^ self.engine.row_word.val()
            ^ bit_cast::<64, 32>(self.engine.cycles.val())
            ^ bit_cast::<64, 8>(self.engine.detail.val())
            ^ (bit_cast::<64, 8>(self.engine.passes.val()) << 8)
            ^ (bit_cast::<64, 3>(self.engine.outcome.val()) << 16)
            ^ (bit_cast::<64, 1>(self.engine.done.val().into()) << 20)
            ^ (bit_cast::<64, 1>(self.engine.busy.val().into()) << 21);
        self.serial_out.next = self.outputs.q.val().get_bit(63);
    }
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("line-solver") => {
            let mut probe = LineSolverProbe::default();
            probe.connect_all();
            print!("{}", generate_verilog(&probe));
        }
        Some("clue-engine") => {
            let mut probe = ClueEngineProbe::default();
            probe.connect_all();
            print!("{}", generate_verilog(&probe));
        }
        _ => {
            eprintln!("usage: probe line-solver|clue-engine > top.v");
            std::process::exit(2);
        }
    }
}
