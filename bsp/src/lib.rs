//! Alchitry Cu board support.
