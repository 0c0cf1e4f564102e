//! Root package: holds the end-to-end tests in `tests/` (host ↔ simulated board).
