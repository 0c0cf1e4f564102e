//! The Alchitry Cu pads this design uses, declared on RustHDL signals (so
//! that `rust_hdl::fpga::toolchains::icestorm::generate_pcf` can be checked
//! against the hand-written `constraints/alchitry_cu.pcf`).

use rust_hdl::prelude::*;

pub use rust_hdl_bsp_alchitry_cu::pins::{clock, leds};

/// The reset button's pad (active low).
pub const RESET_N_PAD: &str = "P8";
/// The FTDI's UART output, into the FPGA (Alchitry's cu.pcf calls it `usb_rx`).
pub const USB_RX_PAD: &str = "P14";
/// The UART out of the FPGA, into the FTDI.
pub const USB_TX_PAD: &str = "M9";

fn input_at(pad: &str) -> Signal<In, Bit> {
    let mut x = Signal::<In, Bit>::default();
    x.add_location(0, pad);
    x
}

/// The reset button, active low.
pub fn reset_n() -> Signal<In, Bit> {
    input_at(RESET_N_PAD)
}

/// The USB-UART line into the FPGA.
pub fn usb_rx() -> Signal<In, Bit> {
    input_at(USB_RX_PAD)
}

/// The USB-UART line out of the FPGA.
pub fn usb_tx() -> Signal<Out, Bit> {
    let mut x = Signal::<Out, Bit>::default();
    x.add_location(0, USB_TX_PAD);
    x
}
