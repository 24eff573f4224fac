//! Where time comes from. The service asks an injected [`Clock`] so that
//! tests and replays control time instead of sleeping.

use std::sync::atomic::{AtomicU64, Ordering};

use todokit_domain::Timestamp;

/// A source of the current time.
pub trait Clock: Send + Sync {
    /// Milliseconds since the Unix epoch.
    fn now(&self) -> Timestamp;
}

/// A clock that moves only when told to: for tests, demos and replays.
#[derive(Debug, Default)]
pub struct ManualClock {
    now: AtomicU64,
}

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: Timestamp) -> Self {
        Self {
            now: AtomicU64::new(start),
        }
    }

    /// Moves the clock forward by `millis`.
    pub fn advance(&self, millis: u64) {
        self.now.fetch_add(millis, Ordering::SeqCst);
    }

    /// Sets the clock to `at`.
    pub fn set(&self, at: Timestamp) {
        self.now.store(at, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        self.now.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn manual_clock_moves_only_when_told() {
        let fixture = ManualClock::new(10);
        fixture.advance(5);
        let first = fixture.now();
        fixture.set(100);
        let actual = (first, fixture.now());
        let expected = (15, 100);
        assert_eq!(actual, expected);
    }
}
