//! Prints puzzle N of a tournament set (the TAAI/TCGA/ICGA format that
//! `nonohost tournament --set` reads) as a `.non` file, for `send` and
//! `solve`:
//!
//! ```sh
//! cargo run -q --release -p nonohost --example set_puzzle -- ../shared/tournament/icga2016.txt 515 \
//!     | nonohost send - --sim --first --budget 4293918720
//! ```
use std::process::exit;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 3 {
        eprintln!("usage: set_puzzle SET N");
        exit(2);
    }
    let set = nonohost::tournament::read_set(std::path::Path::new(&a[1])).unwrap_or_else(|e| {
        eprintln!("{e}");
        exit(1)
    });
    let n: usize = a[2].parse().unwrap_or(0);
    let Some(puzzle) = n.checked_sub(1).and_then(|i| set.get(i)) else {
        eprintln!(
            "{}: there is no puzzle {} (the set has 1 to {})",
            a[1],
            a[2],
            set.len()
        );
        exit(2)
    };
    print!("{}", puzzle.to_non());
}
