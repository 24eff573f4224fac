//! What an operator watches: a server's metrics, which `serve` gives
//! the operator at `GET /metrics` in the OpenMetrics text format
//! Prometheus scrapes (`prometheus-client`).
//!
//! Counters move where the work is done (a tool call, a commit, a
//! request); the gauges of what is held now (sessions, streams, the
//! database's connections) are read from their owners when scraped, so
//! holding one costs nothing. No label carries a tenant's name, a token,
//! a conversation id or anything else a caller chooses: a tool a profile
//! does not have is counted as `unknown`.

mod store;

pub use store::MeteredStore;

use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::{Family, MetricConstructor};
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use todokit::app::{ServiceError, TodoWriteService, ToolResult};

/// The labels of a tool call: its profile, its tool, and how it ended.
type CallLabels = [(&'static str, &'static str); 3];

/// One label, `NAME=VALUE`, every value one of a few fixed words.
type OneLabel = [(&'static str, &'static str); 1];

/// The latency buckets, in seconds: 0.25 ms doubling to about 8 s.
fn latency_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.000_25, 2.0, 16)
}

#[derive(Clone)]
struct LatencyHistogram;

impl MetricConstructor<Histogram> for LatencyHistogram {
    fn new_metric(&self) -> Histogram {
        Histogram::new(latency_buckets())
    }
}

/// One server's metrics: each `serve` makes its own, so two servers in
/// one process count apart.
pub struct Metrics {
    registry: Registry,
    calls: Family<CallLabels, Counter>,
    latency: Family<OneLabel, Histogram, LatencyHistogram>,
    sessions: Family<OneLabel, Gauge>,
    streams: Family<OneLabel, Gauge>,
    store: store::StoreCounters,
    connections: Family<OneLabel, Gauge>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Metrics {
    /// A server's metrics, every count at zero.
    pub(crate) fn new() -> Self {
        let mut registry = Registry::with_prefix("todokit");
        let calls = Family::<CallLabels, Counter>::default();
        registry.register(
            "tool_calls",
            "Tool calls answered, by profile, tool (`unknown` for a name the profile lacks) and outcome: `ok`, \
             `refused` (the tool answered with an error for the model), `unknown_tool`, `failed` (the store)",
            calls.clone(),
        );
        let latency = Family::new_with_constructor(LatencyHistogram);
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's head to its response's head, by surface: `mcp`, `api` (the board's JSON \
             API), `events` (a stream opened), `page`, `other`",
            latency.clone(),
        );
        let sessions = Family::<OneLabel, Gauge>::default();
        registry.register(
            "mcp_sessions",
            "MCP sessions this process holds now, by caller kind (`operator`, `tenant`)",
            sessions.clone(),
        );
        let streams = Family::<OneLabel, Gauge>::default();
        registry.register(
            "streams",
            "Live streams this process holds now (board events, MCP GET streams, listens), by caller kind",
            streams.clone(),
        );
        let store = store::StoreCounters::register(&mut registry);
        let connections = Family::<OneLabel, Gauge>::default();
        registry.register(
            "store_connections",
            "The store's pooled database connections now, by state: `open`, `idle`, `max`, `waiting` (callers \
             waiting for one); absent for a store without a pool",
            connections.clone(),
        );
        Self {
            registry,
            calls,
            latency,
            sessions,
            streams,
            store,
            connections,
        }
    }

    /// Counts one tool call of `service` named `tool` that ended as
    /// `outcome`.
    pub fn count_call(
        &self,
        service: &TodoWriteService,
        tool: &str,
        outcome: &Result<ToolResult, ServiceError>,
    ) {
        let known = service.profile().find(tool).map(|tool| tool.name());
        let ended = match outcome {
            Ok(result) if result.is_error => "refused",
            Ok(_) => "ok",
            Err(ServiceError::UnknownTool { .. }) => "unknown_tool",
            Err(_) => "failed",
        };
        let labels = [
            ("profile", service.profile().name()),
            ("tool", known.unwrap_or("unknown")),
            ("outcome", ended),
        ];
        self.calls.get_or_create(&labels).inc();
    }

    /// Times one request of `surface`.
    pub(crate) fn observe(&self, surface: &'static str, took: Duration) {
        self.latency
            .get_or_create(&[("surface", surface)])
            .observe(took.as_secs_f64());
    }

    /// The text a scrape returns, with the gauges read now: `held` gives
    /// the sessions and streams held per caller kind, `store` is the
    /// conversations' store.
    pub(crate) fn scrape(&self, held: &Held, store: &dyn todokit::ConversationContext) -> String {
        for (kind, count) in held.sessions {
            self.sessions.get_or_create(&[("caller", kind)]).set(gauge(count));
        }
        for (kind, count) in held.streams {
            self.streams.get_or_create(&[("caller", kind)]).set(gauge(count));
        }
        if let Some(pool) = store.connections() {
            for (state, count) in [
                ("open", pool.open),
                ("idle", pool.idle),
                ("max", pool.max),
                ("waiting", pool.waiting),
            ] {
                self.connections
                    .get_or_create(&[("state", state)])
                    .set(gauge(count));
            }
        }
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }

    /// The store counters, for the store wrapper.
    pub(crate) fn store_counters(&self) -> store::StoreCounters {
        self.store.clone()
    }
}

/// What a scrape reads of what the server holds, per caller kind.
pub(crate) struct Held {
    /// MCP sessions: operator's, tenants'.
    pub sessions: [(&'static str, usize); 2],
    /// Live streams: operator's, tenants'.
    pub streams: [(&'static str, usize); 2],
}

fn gauge(count: usize) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// The surface a request's path belongs to, for the latency histogram.
pub(crate) fn surface(path: &str) -> &'static str {
    if path == "/mcp" || path.starts_with("/mcp/") {
        "mcp"
    } else if path == "/api/events" || (path.starts_with("/api/") && path.ends_with("/events")) {
        "events"
    } else if path.starts_with("/api/") {
        "api"
    } else if path == "/" || path.starts_with("/c/") || path.starts_with("/assets/") || path == "/login" {
        "page"
    } else {
        "other"
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use pretty_assertions::assert_eq;
    use todokit::{ManualClock, MemoryStore, profiles};

    use super::*;

    #[test]
    fn a_name_the_profile_lacks_is_counted_as_unknown_and_every_path_has_its_surface() {
        let metrics = Metrics::new();
        let profile = profiles::by_name("claude-code").expect("a profile");
        let service = TodoWriteService::new(
            profile,
            Arc::new(MemoryStore::new()),
            Arc::new(ManualClock::new(0)),
        );
        let chosen = "a-name-a-caller-chose".repeat(50);
        let refused: Result<ToolResult, ServiceError> = Err(ServiceError::UnknownTool {
            profile: "claude-code",
            tool: chosen.clone(),
            available: vec![],
        });
        metrics.count_call(&service, &chosen, &refused);
        let held = Held {
            sessions: [("operator", 0), ("tenant", 2)],
            streams: [("operator", 1), ("tenant", 0)],
        };
        let scraped = metrics.scrape(&held, &MemoryStore::new());
        let surfaces: Vec<&str> = [
            "/mcp",
            "/mcp/{profile}",
            "/api/events",
            "/api/conversations/{id}/events",
            "/api/conversations/{id}",
            "/",
            "/c/{id}",
            "/metrics",
            "unmatched",
        ]
        .map(surface)
        .to_vec();
        let actual = (
            scraped.contains(
                "todokit_tool_calls_total{profile=\"claude-code\",tool=\"unknown\",outcome=\"unknown_tool\"} 1",
            ),
            scraped.contains("a-name"),
            scraped.contains("todokit_mcp_sessions{caller=\"tenant\"} 2"),
            scraped.contains("todokit_store_connections"),
            surfaces,
        );
        let expected = (
            true,
            false,
            true,
            false,
            vec![
                "mcp", "mcp", "events", "events", "api", "page", "page", "other", "other",
            ],
        );
        assert_eq!(actual, expected, "{scraped}");
    }
}
