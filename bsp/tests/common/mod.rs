//! A stand-in top level for testing the flow without the solver core: the
//! board's pins, the real LED/reset glue, and a UART loopback. It is a test
//! fixture only; the product's top level is `nonogram_bsp::top::NonogramTop`.

#![allow(dead_code)]

use nonogram_bsp::glue::BoardGlue;
use nonogram_bsp::pins;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct StandInTop {
    pub clock: Signal<In, Clock>,
    pub reset_n: Signal<In, Bit>,
    pub usb_rx: Signal<In, Bit>,
    pub usb_tx: Signal<Out, Bit>,
    pub leds: Signal<Out, Bits<8>>,
    glue: BoardGlue,
    rx_sync: BitSynchronizer,
}

impl Default for StandInTop {
    fn default() -> Self {
        Self {
            clock: pins::clock(),
            reset_n: pins::reset_n(),
            usb_rx: pins::usb_rx(),
            usb_tx: pins::usb_tx(),
            leds: pins::leds(),
            glue: BoardGlue::default(),
            rx_sync: Default::default(),
        }
    }
}

impl Logic for StandInTop {
    #[hdl_gen]
    fn update(&mut self) {
        self.glue.clock.next = self.clock.val();
        self.rx_sync.clock.next = self.clock.val();
        self.glue.reset_n.next = self.reset_n.val();
        self.rx_sync.sig_in.next = self.usb_rx.val();
        self.usb_tx.next = self.rx_sync.sig_out.val() | self.glue.reset.val();
        // "Receiving" while the line is low.
        self.glue.phase.next = bit_cast::<2, 1>((!self.rx_sync.sig_out.val()).into());
        self.glue.outcome.next = 0.into();
        self.glue.outcome_valid.next = false;
        self.leds.next = self.glue.leds.val();
    }
}

pub fn stand_in() -> StandInTop {
    let mut top = StandInTop::default();
    top.connect_all();
    top
}
