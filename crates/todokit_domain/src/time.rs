//! How the domain tells time: a number the caller passes in, so every
//! transition stays a pure function of its inputs.

/// Milliseconds since the Unix epoch, as an injected clock reports them.
pub type Timestamp = u64;
