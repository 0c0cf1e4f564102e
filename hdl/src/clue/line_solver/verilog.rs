use super::*;
use crate::bench::boards::Rng;
use crate::bench::iverilog_run;
use crate::clue::line_logic::solve_line;
use crate::clue::line_logic::tests::random_line;

/// Per line: length, blocks, known, value, then 32 block lengths.
const WORDS: usize = 36;

const TESTBENCH: &str = r#"
module tb;
  reg clock = 0;
  reg start = 0;
  reg [6:0] length;
  reg [5:0] blocks;
  reg [63:0] known, value;
  reg [6:0] clue_length = 0;
  wire [4:0] clue_address;
  wire busy, done;
  wire [63:0] can_fill, can_empty;
  top uut(.clock(clock), .start(start), .length(length), .blocks(blocks), .known(known),
      .value(value), .clue_address(clue_address), .clue_length(clue_length), .busy(busy),
      .done(done), .can_fill(can_fill), .can_empty(can_empty));
  reg [63:0] stimulus [0:65535];
  integer lines, line, cycles;
  always #5 clock = ~clock;
  // The clue memory: the length asked for arrives a cycle later.
  always @(posedge clock) clue_length <= stimulus[line * 36 + 4 + clue_address][6:0];
  initial begin
$readmemh("stimulus.hex", stimulus);
lines = stimulus[65535];
for (line = 0; line < lines; line = line + 1) begin
  length = stimulus[line * 36][6:0];
  blocks = stimulus[line * 36 + 1][5:0];
  known = stimulus[line * 36 + 2];
  value = stimulus[line * 36 + 3];
  start = 1;
  @(posedge clock); #1;
  start = 0;
  cycles = 1;
  while (!done && cycles < 1000) begin
    @(posedge clock); #1;
    cycles = cycles + 1;
  end
  $display("%h %h %0d", can_fill, can_empty, cycles);
end
$finish;
  end
endmodule
"#;

#[test]
fn verilog_matches_the_reference() {
    let mut rng = Rng(0xfeed_1ca5);
    let mut lines: Vec<(usize, Vec<usize>, u64, u64)> = vec![
        (64, vec![64], 0, 0),
        (64, vec![1; 32], 0, 0),
        (63, vec![1; 32], 0, 0),
        (64, vec![30, 30], 1 << 31, 0),
        (64, vec![31, 31], 1 << 32, 1 << 32),
        (1, vec![], 0, 0),
    ];
    lines.extend((0..200).map(|case| random_line(&mut rng, if case % 2 == 0 { 64 } else { 20 })));
    let mut words = vec![0u64; 65536];
    for (i, (length, clue, known, value)) in lines.iter().enumerate() {
        let at = i * WORDS;
        words[at] = *length as u64;
        words[at + 1] = clue.len() as u64;
        words[at + 2] = *known;
        words[at + 3] = *value;
        for (j, &b) in clue.iter().enumerate() {
            words[at + 4 + j] = b as u64;
        }
    }
    words[65535] = lines.len() as u64;
    let hex: String = words.iter().map(|w| format!("{w:016x}\n")).collect();
    let mut uut = LineSolver::default();
    uut.connect_all();
    let Some(out) = iverilog_run(&uut, "line_solver", TESTBENCH, &[("stimulus.hex", hex)]) else {
        return;
    };
    let results: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("VCD") && !l.is_empty())
        .collect();
    assert_eq!(results.len(), lines.len(), "{out}");
    for ((length, clue, known, value), line) in lines.iter().zip(results) {
        let r = solve_line(*length, clue, *known, *value);
        let cycles = clue.len() as u64 + 2 * *length as u64 + LATENCY;
        assert_eq!(
            line,
            format!("{:016x} {:016x} {cycles}", r.can_fill, r.can_empty),
            "length {length} clue {clue:?} known {known:#x} value {value:#x}"
        );
    }
}
