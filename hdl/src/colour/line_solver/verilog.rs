use super::tests::plane_words;
use super::*;
use crate::bench::boards::Rng;
use crate::bench::iverilog_run;
use crate::colour::line_logic::tests::random_line;
use crate::colour::line_logic::{solve_line, Block as ClueBlock, ColourSet};

/// Per line: length, blocks, the cells' planes (a word each), then 32
/// blocks (length | ink << 8).
const WORDS: usize = 2 + COLOURS + 32;

const TESTBENCH: &str = r#"
module tb;
  reg clock = 0;
  reg start = 0;
  reg [5:0] length;
  reg [5:0] blocks;
  reg [159:0] cells;
  reg [5:0] clue_length = 0;
  reg [2:0] clue_ink = 0;
  wire [4:0] clue_address;
  wire busy, done, feasible;
  wire [159:0] solved;
  top uut(.clock(clock), .start(start), .latch(1'b0), .length(length), .blocks(blocks), .cells(cells),
      .clue_address(clue_address), .clue_length(clue_length), .clue_ink(clue_ink),
      .busy(busy), .done(done), .line(solved), .feasible(feasible));
  reg [63:0] stimulus [0:65535];
  integer lines, line, cycles, c;
  always #5 clock = ~clock;
  // The clue memory: the block asked for arrives a cycle later.
  always @(posedge clock) begin
    clue_length <= stimulus[line * 39 + 7 + clue_address][5:0];
    clue_ink <= stimulus[line * 39 + 7 + clue_address][10:8];
  end
  initial begin
$readmemh("stimulus.hex", stimulus);
lines = stimulus[65535];
for (line = 0; line < lines; line = line + 1) begin
  length = stimulus[line * 39][5:0];
  blocks = stimulus[line * 39 + 1][5:0];
  for (c = 0; c < 5; c = c + 1)
    cells[c * 32 +: 32] = stimulus[line * 39 + 2 + c][31:0];
  start = 1;
  @(posedge clock); #1;
  start = 0;
  cycles = 1;
  while (!done && cycles < 1000) begin
    @(posedge clock); #1;
    cycles = cycles + 1;
  end
  $display("%h %0d %0d", solved, feasible, cycles);
end
$finish;
  end
endmodule
"#;

#[test]
fn verilog_matches_the_model() {
    assert_eq!((COLOURS, WORDS), (5, 39), "the testbench's layout");
    let mut rng = Rng(0xc010_0a11_1ca5);
    let all: ColourSet = (1 << COLOURS) - 1;
    let alternating: Vec<ClueBlock> = (0..32)
        .map(|i| ClueBlock {
            length: 1,
            ink: 1 + (i % 2) as u8,
        })
        .collect();
    let mut lines: Vec<(Vec<ClueBlock>, Vec<ColourSet>)> = vec![
        (vec![], vec![all]),
        (alternating, vec![all; 32]),
        (vec![ClueBlock { length: 16, ink: 3 }; 2], vec![all; 32]),
        (vec![ClueBlock { length: 32, ink: 4 }], vec![all; 32]),
    ];
    lines
        .extend((0..200).map(|case| random_line(&mut rng, if case % 2 == 0 { 32 } else { 12 }, INKS as u64)));
    let mut words = vec![0u64; 65536];
    for (i, (blocks, cells)) in lines.iter().enumerate() {
        let at = i * WORDS;
        words[at] = cells.len() as u64;
        words[at + 1] = blocks.len() as u64;
        words[at + 2..at + 2 + COLOURS].copy_from_slice(&plane_words(cells));
        for (j, b) in blocks.iter().enumerate() {
            words[at + 2 + COLOURS + j] = b.length as u64 | (b.ink as u64) << 8;
        }
    }
    words[65535] = lines.len() as u64;
    let hex: String = words.iter().map(|w| format!("{w:016x}\n")).collect();
    let mut uut = ColourLineSolver::default();
    uut.connect_all();
    let Some(out) = iverilog_run(&uut, "colour_line_solver", TESTBENCH, &[("stimulus.hex", hex)]) else {
        return;
    };
    let results: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("VCD") && !l.is_empty())
        .collect();
    assert_eq!(results.len(), lines.len(), "{out}");
    for ((blocks, cells), line) in lines.iter().zip(results) {
        let mut expected = cells.clone();
        let feasible = solve_line(blocks, &mut expected);
        // A line with no fill leaves nothing.
        let planes = if feasible {
            plane_words(&expected)
        } else {
            [0; COLOURS]
        };
        let result: String = planes.iter().rev().map(|w| format!("{w:08x}")).collect();
        let cycles = (blocks.len() + 2 * cells.len()) as u64 + LATENCY;
        assert_eq!(
            line,
            format!("{result} {} {cycles}", feasible as u8),
            "clue {blocks:?} cells {cells:?}"
        );
    }
}
