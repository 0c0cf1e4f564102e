//! Build parameters of the gateware. Each can be overridden when building,
//! with an environment variable of the same name (for example
//! `NONOGRAM_FIFO_ADDR_BITS=12 cargo run -p nonogram-bsp -- build`); the
//! board reports the values it was built with in its INFO reply.

const fn parse_or(value: Option<&str>, default: usize) -> usize {
    let Some(text) = value else { return default };
    let bytes = text.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        assert!(
            bytes[i].is_ascii_digit(),
            "build parameter must be a decimal number"
        );
        n = n * 10 + (bytes[i] - b'0') as usize;
        i += 1;
    }
    n
}

/// log2 of the option FIFO's entries. 11 = 2048 options of 32 bits: 16 of the
/// HX8K's 32 block RAMs, enough for typical 15×15 puzzles (~1 500 options),
/// and a RAM small enough to read at 100 MHz.
pub const FIFO_ADDR_BITS: usize = parse_or(option_env!("NONOGRAM_FIFO_ADDR_BITS"), 11);

/// Options the FIFO holds.
pub const FIFO_ENTRIES: usize = 1 << FIFO_ADDR_BITS;

/// Width of a per-line option count (a line may hold every entry).
pub const COUNT_BITS: usize = FIFO_ADDR_BITS + 1;

/// Longest line, in cells: the width of an option word and the largest number
/// of rows or of columns. Fixed at 32 (one option per 32-bit word).
pub const MAX_LINE: usize = 32;

/// Bits of a row or column number (0..=MAX_LINE).
pub const DIM_BITS: usize = 6;

/// Most lines (rows + columns) a board may have.
pub const MAX_LINES: usize = 64;

/// Bits of a line number (0..MAX_LINES) plus one, so that MAX_LINES itself fits.
pub const LINE_ID_BITS: usize = 7;

/// Bits of the solve's clock-cycle counter (reported in four STATUS bytes).
pub const CYCLE_BITS: usize = 32;

/// Clocks per UART bit on the Alchitry Cu: 100 MHz / 9600 baud, rounded.
pub const fn board_clocks_per_bit(clock_hz: u64, baud: u64) -> u64 {
    (clock_hz + baud / 2) / baud
}

/// The Alchitry Cu's oscillator.
pub const BOARD_CLOCK_HZ: u64 = 100_000_000;
