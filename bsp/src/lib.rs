//! Alchitry Cu board support of the nonogram solver: the top level (pins,
//! reset synchroniser, LEDs) around `nonogram_hdl`'s core, the hand-written
//! pin constraints and their check, and the checked synthesis and flashing
//! flow behind `cargo run --release -p nonogram-bsp -- build | flash`.

pub mod flow;
pub mod glue;
pub mod pcf;
pub mod pins;
pub mod seed_record;
pub mod top;
