//! Emits the Verilog of the clue engine's line solver behind a serial probe
//! (every input from a shift register fed by one pin, every output folded
//! into one pin), so that nextpnr can place and time it on the HX8K alone:
//!
//! ```sh
//! cargo run --release -p nonogram-hdl --example line_solver_probe > probe.v
//! ```
//! then: yosys -p "synth_ice40 -top top -json top.json" probe.v && nextpnr-ice40 --hx8k
//! --package cb132 --freq 100 --json top.json --pcf-allow-unconstrained

use nonogram_hdl::line_solver::LineSolver;
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

fn main() {
    let mut probe = LineSolverProbe::default();
    probe.connect_all();
    print!("{}", generate_verilog(&probe));
}
