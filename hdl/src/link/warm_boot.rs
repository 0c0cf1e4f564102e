//! Warm boot: turns the host's SWITCH request into the pins of the iCE40's
//! `SB_WARMBOOT` primitive, which reconfigures the FPGA from flash image
//! `S1 S0` when `BOOT` rises.
//!
//! A request is obeyed only when the core is idle (no board loading,
//! solving or replying: a reboot would cut a reply in half) and the flash
//! holds the image asked for (booting an empty slot would leave the FPGA
//! unconfigured until it is powered off). Anything else is ignored; the
//! host learns from the next INFO reply whether the board switched.
//!
//! Timing: the request, its image check and `idle` are registered first
//! (`idle` gathers the whole core's busy flags, the check compares the
//! message's 12-bit index; a request comes at least a message time after
//! anything that makes the core busy, so a cycle late costs nothing; the
//! first version, unregistered, missed 100 MHz). The image select is
//! registered one cycle before `boot` rises,
//! so S1/S0 are stable when the primitive samples them. Once armed the
//! block holds `boot` high: the FPGA is about to be reconfigured, and
//! nothing after that matters. Only `reset` disarms it (on the board the
//! reboot comes first).

use crate::constant;
use crate::link::protocol::image;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WarmBoot {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Pulse: a SWITCH arrived outside a board.
    pub request: Signal<In, Bit>,
    /// Its index: the image asked for.
    pub image: Signal<In, Bits<12>>,
    /// The core is neither loading, solving nor replying.
    pub idle: Signal<In, Bit>,
    /// To `SB_WARMBOOT`'s BOOT: reconfigure on its rising edge.
    pub boot: Signal<Out, Bit>,
    /// To `SB_WARMBOOT`'s S1 (bit 1) and S0 (bit 0).
    pub select: Signal<Out, Bits<2>>,
    idle_q: DFF<Bit>,
    request_q: DFF<Bit>,
    /// The image asked for is in the flash.
    held_q: DFF<Bit>,
    image_q: DFF<Bits<2>>,
    armed: DFF<Bit>,
    boot_q: DFF<Bit>,
    select_q: DFF<Bits<2>>,
    /// The images the flash holds, one bit each.
    images: Constant<Bits<4>>,
    slots: Constant<Bits<12>>,
}

impl WarmBoot {
    /// A warm boot for a flash that holds the `images` set (bit i: image i).
    pub fn new(images: u8) -> WarmBoot {
        assert!(images < 1 << image::SLOTS, "an iCE40 flash holds 4 images");
        WarmBoot {
            clock: Default::default(),
            reset: Default::default(),
            request: Default::default(),
            image: Default::default(),
            idle: Default::default(),
            boot: Default::default(),
            select: Default::default(),
            idle_q: Default::default(),
            request_q: Default::default(),
            held_q: Default::default(),
            image_q: Default::default(),
            armed: Default::default(),
            boot_q: Default::default(),
            select_q: Default::default(),
            images: constant(images),
            slots: constant(image::SLOTS),
        }
    }
}

impl Logic for WarmBoot {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, idle_q, request_q, held_q, image_q, armed, boot_q, select_q);
        self.idle_q.d.next = self.idle.val();
        self.request_q.d.next = self.request.val();
        self.held_q.d.next = (self.image.val() < self.slots.val())
            & self
                .images
                .val()
                .get_bit(self.image.val().get_bits::<2>(0).index());
        self.image_q.d.next = self.image.val().get_bits::<2>(0);
        self.boot.next = self.boot_q.q.val();
        self.select.next = self.select_q.q.val();
        self.boot_q.d.next = self.armed.q.val();
        if self.request_q.q.val() & self.held_q.q.val() & self.idle_q.q.val() & !self.armed.q.val() {
            self.armed.d.next = true;
            self.select_q.d.next = self.image_q.q.val();
        }
        if self.reset.val() {
            self.request_q.d.next = false;
            self.armed.d.next = false;
            self.boot_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boot(images: u8) -> WarmBoot {
        let mut b = WarmBoot::new(images);
        b.connect_all();
        b
    }

    fn cycle(b: &mut WarmBoot) {
        crate::bench::tick(b, |b| &mut b.clock);
    }

    /// Sets `idle` for a cycle, then sends one request pulse; returns (boot,
    /// select) after it and the next 3 cycles.
    fn ask(b: &mut WarmBoot, image: u64, idle: bool) -> Vec<(bool, u8)> {
        b.idle.next = idle;
        cycle(b);
        b.request.next = true;
        b.image.next = image.into();
        (0..4)
            .map(|_| {
                cycle(b);
                b.request.next = false;
                (b.boot.val(), b.select.val().to_u8())
            })
            .collect()
    }

    #[test]
    fn an_idle_board_boots_an_image_the_flash_holds_with_the_select_first() {
        let mut b = boot(0b0011);
        cycle(&mut b);
        assert_eq!(
            ask(&mut b, 1, true),
            [(false, 0), (false, 1), (true, 1), (true, 1)]
        );
        // Armed: later requests change nothing.
        assert_eq!(ask(&mut b, 0, true), [(true, 1); 4]);
        b.reset.next = true;
        cycle(&mut b);
        b.reset.next = false;
        cycle(&mut b);
        assert!(!b.boot.val());
        assert_eq!(
            ask(&mut b, 0, true),
            [(false, 1), (false, 0), (true, 0), (true, 0)]
        );
    }

    #[test]
    fn a_busy_board_an_empty_slot_or_a_bad_index_is_ignored() {
        let mut b = boot(0b0101);
        cycle(&mut b);
        for (image, idle) in [(2, false), (1, true), (3, true), (6, true), (4095, true)] {
            assert_eq!(ask(&mut b, image, idle), [(false, 0); 4], "image {image}");
        }
        assert_eq!(
            ask(&mut b, 2, true),
            [(false, 0), (false, 2), (true, 2), (true, 2)]
        );
    }

    #[test]
    fn the_warm_boot_synthesises_without_latches() {
        let mut b = WarmBoot::new(image::FLASH);
        b.connect_all();
        crate::bench::yosys_check(&b, "warm_boot");
    }
}
