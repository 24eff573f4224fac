//! `serve --retain`: conversations left unchanged longer than the
//! retention are forgotten by a sweep that runs when the server starts and
//! then every [`RETAIN_SWEEP_DIVISOR`]th of the retention (at least every
//! [`RETAIN_SWEEP_MIN`], at most every [`RETAIN_SWEEP_MAX`]), over the
//! whole store, every namespace included. Several servers on one database
//! each sweep; a conversation forgotten by one is not found by the others.

use std::time::Duration;

use todokit::TodoWriteService;

/// The sweep runs this many times in each retention period (so a
/// conversation outlives its retention by at most this fraction of it).
pub const RETAIN_SWEEP_DIVISOR: u32 = 24;

/// The shortest time between two sweeps.
pub const RETAIN_SWEEP_MIN: Duration = Duration::from_secs(1);

/// The longest time between two sweeps.
pub const RETAIN_SWEEP_MAX: Duration = Duration::from_secs(3_600);

/// How long the sweep waits between runs for a retention of `retain`.
pub fn sweep_interval(retain: Duration) -> Duration {
    (retain / RETAIN_SWEEP_DIVISOR).clamp(RETAIN_SWEEP_MIN, RETAIN_SWEEP_MAX)
}

/// Forgets, now and then every [`sweep_interval`], every conversation of
/// `service`'s store left unchanged for `retain`; logs how many went, and
/// why a sweep failed (the next one tries again).
pub(super) async fn sweep(service: TodoWriteService, retain: Duration) {
    let every = sweep_interval(retain);
    loop {
        match service.prune("", retain, false).await {
            Ok(pruned) => {
                if !pruned.forgotten.is_empty() {
                    tracing::info!(
                        target: "todokit::serve",
                        forgotten = pruned.forgotten.len(),
                        retain_s = retain.as_secs(),
                        "--retain forgot conversations unchanged that long"
                    );
                }
                // Each one that could not go is said, and the sweep went on
                // past it (counted in `store_prune_failures`).
                for (conversation, error) in &pruned.failed {
                    tracing::error!(
                        target: "todokit::serve",
                        conversation = %todokit::domain::clip(conversation),
                        error = %error,
                        again_in_s = every.as_secs(),
                        "--retain could not forget a conversation; the others went, and this one is tried again \
                         next sweep"
                    );
                }
            }
            Err(error) => tracing::warn!(
                target: "todokit::serve",
                error = %error,
                again_in_s = every.as_secs(),
                "--retain: the sweep failed, and runs again later"
            ),
        }
        tokio::time::sleep(every).await;
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_sweep_runs_a_fraction_of_the_retention_apart_within_bounds() {
        let actual: Vec<u64> = [10, 3_600, 86_400, 30 * 86_400]
            .map(|secs| sweep_interval(Duration::from_secs(secs)).as_secs())
            .to_vec();
        assert_eq!(actual, vec![1, 150, 3_600, 3_600]);
    }
}
