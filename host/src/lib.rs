//! nonohost library.
