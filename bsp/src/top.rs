//! The Alchitry Cu top level: the solver core behind the board's pins. There
//! are two bitstreams, one per engine (they do not fit the HX8K together),
//! packed into one flash: `NonogramTop` around the DNF core (protocol v1,
//! image 0, the power-up image) and `ClueTop` around the clue core
//! (protocol v2, image 1). Each core drives `SB_WARMBOOT` to reboot into
//! the other on the host's SWITCH.
//!
//! RustHDL emits this block as `module top(clock,reset_n,usb_rx,usb_tx,leds)`:
//! the port names are the field names below, and
//! `constraints/alchitry_cu.pcf` must name them (checked by the tests and by
//! every build).

use crate::glue::{BoardGlue, BOARD_TICK_CLOCKS};
use crate::pins;
pub use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::core::{ClueCore, ProbingCore};
use nonogram_hdl::colour::core::ColourCore;
use nonogram_hdl::common::params::{board_clocks_per_bit, BOARD_CLOCK_HZ};
use nonogram_hdl::dnf::core::NonogramCore;
use rust_hdl::prelude::*;

/// The top level around a core: the same pins, glue and LEDs for either engine.
macro_rules! board_top {
    ($top:ident, $core:ident) => {
        #[derive(LogicBlock)]
        pub struct $top {
            /// 100 MHz oscillator (P7).
            pub clock: Signal<In, Clock>,
            /// Reset button, active low (P8).
            pub reset_n: Signal<In, Bit>,
            /// USB-UART, FTDI to FPGA (P14).
            pub usb_rx: Signal<In, Bit>,
            /// USB-UART, FPGA to FTDI (M9).
            pub usb_tx: Signal<Out, Bit>,
            /// LEDs 0..7 (J11 K11 K12 K14 L12 L14 M12 N14).
            pub leds: Signal<Out, Bits<8>>,
            glue: BoardGlue,
            core: $core,
            warm_boot: SbWarmBoot,
        }

        impl $top {
            /// The top level for a UART of `clocks_per_bit` clock cycles per bit.
            pub fn new(clocks_per_bit: u32) -> Self {
                Self::with_tick(clocks_per_bit, BOARD_TICK_CLOCKS)
            }

            /// The top level at `baud` on the Cu's 100 MHz clock.
            pub fn for_baud(baud: u32) -> Self {
                Self::new(clocks_per_bit(baud))
            }

            /// As `new`, with an LED tick of `tick_clocks` cycles
            /// (simulations shorten it; the board's is 10 ms).
            pub fn with_tick(clocks_per_bit: u32, tick_clocks: u32) -> Self {
                Self {
                    clock: pins::clock(),
                    reset_n: pins::reset_n(),
                    usb_rx: pins::usb_rx(),
                    usb_tx: pins::usb_tx(),
                    leds: pins::leds(),
                    glue: BoardGlue::new(tick_clocks),
                    core: $core::new(clocks_per_bit),
                    warm_boot: SbWarmBoot::default(),
                }
            }
        }

        impl Logic for $top {
            #[hdl_gen]
            fn update(&mut self) {
                self.glue.clock.next = self.clock.val();
                self.core.clock.next = self.clock.val();
                self.glue.reset_n.next = self.reset_n.val();
                self.core.reset.next = self.glue.reset.val();
                self.core.rx.next = self.usb_rx.val();
                self.usb_tx.next = self.core.tx.val();
                self.glue.phase.next = self.core.phase.val();
                self.glue.outcome.next = self.core.outcome.val();
                self.glue.outcome_valid.next = self.core.outcome_valid.val();
                self.leds.next = self.glue.leds.val();
                self.warm_boot.boot.next = self.core.boot.val();
                self.warm_boot.select.next = self.core.boot_image.val();
            }
        }
    };
}

/// The iCE40's `SB_WARMBOOT` primitive: when BOOT rises, the FPGA
/// reconfigures itself from flash image S1 S0 (images packed by icemulti).
/// yosys's iCE40 library knows it; the blackbox declaration is for the
/// generic checks (and simulation stands a model in for it).
#[derive(LogicBlock, Default)]
pub struct SbWarmBoot {
    pub boot: Signal<In, Bit>,
    /// S1 (bit 1) and S0 (bit 0).
    pub select: Signal<In, Bits<2>>,
}

impl Logic for SbWarmBoot {
    fn update(&mut self) {}

    fn connect(&mut self) {}

    fn hdl(&self) -> Verilog {
        Verilog::Wrapper(Wrapper {
            code: "SB_WARMBOOT warm_boot(.BOOT(boot), .S1(select[1]), .S0(select[0]));".into(),
            cores: WARMBOOT_BLACKBOX.into(),
        })
    }
}

/// The declaration of `SB_WARMBOOT` that goes with the top's Verilog.
pub const WARMBOOT_BLACKBOX: &str = "(* blackbox *)
module SB_WARMBOOT(input BOOT, input S1, input S0);
endmodule
";

board_top!(NonogramTop, NonogramCore);
board_top!(ClueTop, ClueCore);
board_top!(ProbingTop, ProbingCore);
board_top!(ColourTop, ColourCore);

/// Clocks per UART bit at `baud` on the Cu's 100 MHz clock.
pub fn clocks_per_bit(baud: u32) -> u32 {
    board_clocks_per_bit(BOARD_CLOCK_HZ, baud as u64) as u32
}

/// The top level's Verilog, checked by RustHDL (`check_all`) first, so that
/// a broken design is an error rather than a panic.
pub fn top_verilog(clocks_per_bit: u32, engine: Engine) -> Result<String, String> {
    fn checked<B: Block>(mut top: B) -> Result<String, String> {
        top.connect_all();
        rust_hdl::core::check_error::check_all(&top)
            .map_err(|e| format!("RustHDL's check of the top level failed: {e:?}"))?;
        Ok(generate_verilog(&top))
    }
    match engine {
        Engine::Dnf => checked(NonogramTop::new(clocks_per_bit)),
        Engine::Clues => checked(ClueTop::new(clocks_per_bit)),
        Engine::Probing => checked(ProbingTop::new(clocks_per_bit)),
        Engine::Colour => checked(ColourTop::new(clocks_per_bit)),
    }
}

/// The pin constraints the top level declares on its signals, as a pcf.
pub fn declared_pcf() -> String {
    let mut top = NonogramTop::new(clocks_per_bit(9600));
    top.connect_all();
    rust_hdl::fpga::toolchains::icestorm::generate_pcf(&top)
}
