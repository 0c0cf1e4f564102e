//! One cell written into a line word, and what the cell had. The colour
//! engine writes every cell this way: a narrowed cell into its crossing
//! line, a branch into its row and column, an undone cell back.
//!
//! The write itself costs no logic: the board's block RAM keeps every bit
//! but the cell's five (its write mask, `keep`), and the word written has
//! the colours in every cell's place. This block reads the word only for what
//! the cell had, which the trail and the freedom need. (Writing the cell
//! into the word read, a multiplexer and a flip-flop a bit, took about
//! 300 logic cells more.)
//!
//! Registered: the write and the counts are ready the cycle after `word`
//! (a block RAM's read) arrives, for a write in that cycle. The counts go
//! into the registers, so that the freedom's add takes them ready: `bit`
//! and `colours` must come from registers (the solver's are chosen by
//! registered flags), else the read, the cell's AND-OR and the count
//! make the image's longest path.

use crate::colour::line_solver::{COLOURS, MAX_CELLS, PLANE_BITS};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct CellWriter {
    pub clock: Signal<In, Clock>,
    pub word: Signal<In, Bits<PLANE_BITS>>,
    /// The cell, one-hot.
    pub bit: Signal<In, Bits<MAX_CELLS>>,
    pub colours: Signal<In, Bits<COLOURS>>,
    /// A cycle later: the write (`colours` to write in every cell, the
    /// other cells' bits set in `keep`), the colours the cell had, and how
    /// many it had and has.
    pub written_colours: Signal<Out, Bits<COLOURS>>,
    pub keep: Signal<Out, Bits<PLANE_BITS>>,
    pub had: Signal<Out, Bits<COLOURS>>,
    pub had_count: Signal<Out, Bits<3>>,
    pub count: Signal<Out, Bits<3>>,
    keep_q: DFF<Bits<MAX_CELLS>>,
    had_q: DFF<Bits<COLOURS>>,
    colours_q: DFF<Bits<COLOURS>>,
    old: Signal<Local, Bits<COLOURS>>,
    old_count: Signal<Local, Bits<3>>,
    new_count: Signal<Local, Bits<3>>,
}

impl Logic for CellWriter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, keep_q, had_q, colours_q);
        self.old.next = 0.into();
        self.old_count.next = 0.into();
        self.new_count.next = 0.into();
        self.keep.next = 0.into();
        for c in 0..COLOURS {
            self.old.next = self
                .old
                .val()
                .replace_bit(c, (self.word.val().get_bits::<32>(32 * c) & self.bit.val()).any());
            if self.had_q.q.val().get_bit(c) {
                self.old_count.next = self.old_count.val() + 1;
            }
            if self.colours_q.q.val().get_bit(c) {
                self.new_count.next = self.new_count.val() + 1;
            }
            for i in 0..MAX_CELLS {
                self.keep.next = self
                    .keep
                    .val()
                    .replace_bit(32 * c + i, self.keep_q.q.val().get_bit(i));
            }
        }
        self.keep_q.d.next = !self.bit.val();
        self.had_q.d.next = self.old.val();
        self.colours_q.d.next = self.colours.val();
        self.written_colours.next = self.colours_q.q.val();
        self.had.next = self.had_q.q.val();
        self.had_count.next = self.old_count.val();
        self.count.next = self.new_count.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::tick;

    /// The word the block RAM keeps after the write: `keep`'s bits of the
    /// old word, the written colours elsewhere (plane c all colour c).
    fn after_write(word: Bits<PLANE_BITS>, colours: u64, keep: Bits<PLANE_BITS>) -> Bits<PLANE_BITS> {
        let data = (0..COLOURS).fold(Bits::<PLANE_BITS>::default(), |d, c| {
            d | (Bits::<PLANE_BITS>::from(0xffff_ffff * (colours >> c & 1)) << (32 * c as u64))
        });
        (word & keep) | (data & !keep)
    }

    /// Random words, cells and colours: the word after the write differs
    /// from the word in the cell's five bits only, which hold the colours;
    /// the counts are the cell's colours before and after.
    #[test]
    fn writes_one_cell() {
        let mut uut = CellWriter::default();
        uut.connect_all();
        let mut rng = Rng(0xce11);
        for _ in 0..500 {
            let planes: Vec<u64> = (0..COLOURS).map(|_| rng.next_u64() & 0xffff_ffff).collect();
            let (cell, colours) = (rng.below(32), rng.below(32));
            let word = planes
                .iter()
                .enumerate()
                .fold(Bits::<PLANE_BITS>::default(), |w, (c, &p)| {
                    w | (Bits::<PLANE_BITS>::from(p) << (32 * c as u64))
                });
            uut.word.next = word;
            uut.bit.next = (1u64 << cell).into();
            uut.colours.next = colours.into();
            tick(&mut uut, |u| &mut u.clock);
            let had = (0..COLOURS).fold(0, |h, c| h | (planes[c] >> cell & 1) << c);
            assert_eq!(uut.had.val().to_u64(), had);
            assert_eq!(uut.had_count.val().to_u64(), had.count_ones() as u64);
            assert_eq!(uut.count.val().to_u64(), colours.count_ones() as u64);
            let written = after_write(word, uut.written_colours.val().to_u64(), uut.keep.val());
            for (c, &p) in planes.iter().enumerate() {
                let want = (p & !(1 << cell)) | (colours >> c & 1) << cell;
                assert_eq!(written.get_bits::<32>(32 * c).to_u64(), want, "plane {c}");
            }
        }
    }

    /// The emitted Verilog under Icarus, the same random writes.
    #[test]
    fn verilog_writes_one_cell() {
        const TESTBENCH: &str = r#"
module tb;
  reg clock = 0;
  reg [159:0] word;
  reg [31:0] bit;
  reg [4:0] colours;
  wire [159:0] keep;
  wire [4:0] written_colours;
  wire [159:0] data = {{32{written_colours[4]}}, {32{written_colours[3]}}, {32{written_colours[2]}},
      {32{written_colours[1]}}, {32{written_colours[0]}}};
  wire [4:0] had;
  wire [2:0] had_count, count;
  top uut(.clock(clock), .word(word), .bit(bit), .colours(colours), .written_colours(written_colours), .keep(keep),
      .had(had), .had_count(had_count), .count(count));
  reg [31:0] stimulus [0:4095];
  integer t, c;
  always #5 clock = ~clock;
  initial begin
$readmemh("stimulus.hex", stimulus);
for (t = 0; t < 200; t = t + 1) begin
  for (c = 0; c < 5; c = c + 1) word[c * 32 +: 32] = stimulus[t * 7 + c];
  bit = stimulus[t * 7 + 5]; colours = stimulus[t * 7 + 6];
  @(posedge clock); #1;
  $display("%h %h %0d %0d", (word & keep) | (data & ~keep), had, had_count, count);
end
$finish;
  end
endmodule
"#;
        let mut rng = Rng(0xce12);
        let mut words = vec![];
        let mut cases = vec![];
        for _ in 0..200 {
            let planes: Vec<u64> = (0..COLOURS).map(|_| rng.next_u64() & 0xffff_ffff).collect();
            let (cell, colours) = (rng.below(32), rng.below(32));
            words.extend(planes.iter().copied());
            words.extend([1u64 << cell, colours]);
            cases.push((planes, cell, colours));
        }
        let hex: String = words.iter().map(|w| format!("{w:08x}\n")).collect();
        let mut uut = CellWriter::default();
        uut.connect_all();
        let Some(out) = crate::bench::iverilog_run(&uut, "cell_writer", TESTBENCH, &[("stimulus.hex", hex)])
        else {
            return;
        };
        let mut lines = out.lines().filter(|l| !l.is_empty() && !l.starts_with("WARNING"));
        for (planes, cell, colours) in cases {
            let want_word: String = planes
                .iter()
                .enumerate()
                .rev()
                .map(|(c, &p)| format!("{:08x}", (p & !(1 << cell)) | (colours >> c & 1) << cell))
                .collect();
            let had = (0..COLOURS).fold(0, |h, c| h | (planes[c] >> cell & 1) << c);
            let want = format!(
                "{want_word} {had:02x} {} {}",
                had.count_ones(),
                colours.count_ones()
            );
            assert_eq!(
                lines.next().expect("a line"),
                want,
                "cell {cell}, colours {colours:05b}"
            );
        }
    }
}
