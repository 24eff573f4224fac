//! The load generator's open loop: requests sent on a schedule, at a
//! fixed rate whatever the answers do, each one's latency measured from
//! the moment it was due (as wrk2 does), so a server that falls behind
//! shows it in every request that waited, not only in the one that was
//! slow (a closed loop's coordinated omission).
//!
//! [`WORKERS`] connections share the schedule: request `i` is due at
//! `start + i / rate` and goes out on connection `i % WORKERS`, each
//! connection on its own conversation. A connection still busy when its
//! next request is due sends it as soon as it is free, and that wait is
//! counted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::client::Connection;

/// Connections sharing the schedule: at 1,000 calls/s each sends every
/// 64 ms, far longer than a call takes, so a connection is seldom the
/// reason a request waits.
pub const WORKERS: usize = 64;

/// What an open-loop run measured.
pub struct OpenRun {
    /// Requests due in the window.
    pub due: usize,
    /// Answered with a result that is not an error.
    pub acknowledged: u64,
    /// Not answered, or answered with an error.
    pub failures: usize,
    /// Each request's latency from its due time.
    pub latencies: Vec<Duration>,
    /// From the first due time to the last answer.
    pub elapsed: Duration,
}

impl OpenRun {
    /// The latency at quantile `q` (0 to 1).
    pub fn at(&self, q: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        sorted
            .get(((sorted.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or_default()
    }
}

/// Sends `rate` calls a second for `window` to `addresses` (connection
/// `w` to `addresses[w % n]`), W1's `arguments` on conversation
/// `TAG-w`.
pub fn run(addresses: &[String], arguments: &str, tag: &str, rate: f64, window: Duration) -> OpenRun {
    let due = (rate * window.as_secs_f64()).round() as usize;
    let interval = Duration::from_secs_f64(1.0 / rate);
    // A little ahead, so every worker has its connection open when the
    // first request is due.
    let start = Instant::now() + Duration::from_millis(200);
    let arguments: Arc<str> = arguments.into();
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let address = addresses[w % addresses.len()].clone();
            let arguments = Arc::clone(&arguments);
            let conversation = format!("{tag}-{w}");
            std::thread::spawn(move || {
                let mut connection = Connection::open(&address);
                let mut latencies = Vec::new();
                let (mut acknowledged, mut failures) = (0u64, 0usize);
                for (id, i) in (w..due).step_by(WORKERS).enumerate() {
                    let due_at = start + interval * i as u32;
                    if let Some(wait) = due_at.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    let ok = connection.call(id as u64 + 1, &conversation, &arguments);
                    latencies.push(due_at.elapsed());
                    if ok {
                        acknowledged += 1;
                    } else {
                        failures += 1;
                    }
                }
                (acknowledged, failures, latencies)
            })
        })
        .collect();
    let mut run = OpenRun {
        due,
        acknowledged: 0,
        failures: 0,
        latencies: Vec::with_capacity(due),
        elapsed: Duration::ZERO,
    };
    for worker in workers {
        let (acknowledged, failures, latencies) = worker.join().expect("a worker");
        run.acknowledged += acknowledged;
        run.failures += failures;
        run.latencies.extend(latencies);
    }
    run.elapsed = start.elapsed();
    run
}
