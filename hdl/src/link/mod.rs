//! The link to the host, shared by both engines: the UARTs behind their
//! synchronisers, the framer that makes 16-bit messages of bytes, the board
//! session (the front end of both protocols' parsers), the replies' message
//! sender and STATUS fields, and protocol v1's messages and status fields.

pub mod framer;
pub mod message_sender;
pub mod protocol;
pub mod session;
pub mod status_fields;
pub mod uart_rx;
pub mod uart_tx;
pub mod warm_boot;
