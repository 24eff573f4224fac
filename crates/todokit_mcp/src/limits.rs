//! The bounds every transport of the server applies to what a client
//! sends, in one leaf module that the reader, the gate and the HTTP
//! routes all take them from.

/// The longest message the server reads, in bytes (4 MiB: a full list at
/// the default limits is well under 1 MiB). A longer one is answered with a
/// JSON-RPC error (`-32600`, with its id when one can be found) and skipped
/// without being held in memory.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// The most requests read but not yet answered. While this many wait, the
/// server reads nothing more.
pub const MAX_IN_FLIGHT: usize = 32;

/// The most conversations one session follows at a time, through
/// `resources/subscribe` and open listen requests together. A subscription
/// past it is refused; a listen request gets the ones that fit.
pub const MAX_FOLLOWED_CONVERSATIONS: usize = 64;

/// The most `subscriptions/listen` requests one session keeps open; one
/// past it is acknowledged with nothing accepted.
pub const MAX_LISTENS: usize = 8;
