//! The wall clock.

use std::time::{SystemTime, UNIX_EPOCH};

use todokit_app::Clock;
use todokit_domain::Timestamp;

/// The operating system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        now_millis()
    }
}

/// `time` as milliseconds since the Unix epoch; a time before 1970 reads
/// as the epoch rather than failing.
pub(crate) fn millis_of(time: SystemTime) -> Timestamp {
    time.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// The wall clock now, in milliseconds since the Unix epoch.
pub(crate) fn now_millis() -> Timestamp {
    millis_of(SystemTime::now())
}
