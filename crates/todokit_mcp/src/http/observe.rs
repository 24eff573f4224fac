//! Every request, observed: a request id (`r-` and 8 hex digits) that
//! the server's log lines carry and that a tenant's veiled error names,
//! its time in the latency histogram of its surface, and one log line when
//! its response head goes out (`tracing`, target `todokit::request`): the
//! id, the caller's kind, the method, the route as the router matched it
//! (`/api/conversations/{id}`, never the id itself), the status and the
//! duration. The caller's kind is known only once the token check ran, so
//! that check writes it into a slot this layer put on the request.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;

tokio::task_local! {
    /// The id of the request whose handler runs now (absent in tasks of
    /// its own that a handler spawned, such as rmcp's sessions).
    static REQUEST: Arc<str>;
}

/// Where the token check writes who the caller is.
#[derive(Clone, Default)]
pub(super) struct CallerSlot(Arc<OnceLock<&'static str>>);

impl CallerSlot {
    /// Records the caller's kind (`operator`, `tenant`).
    pub(super) fn set(&self, kind: &'static str) {
        let _ = self.0.set(kind);
    }
}

/// A new request id: `r-` and 8 hex digits, unique enough to find a line
/// in a log (not a secret).
pub(super) fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("r-{:08x}", hasher.finish() as u32)
}

/// The id of the request being handled, when this task handles one.
pub(super) fn current() -> Option<Arc<str>> {
    REQUEST.try_with(Arc::clone).ok()
}

/// The outermost layer: ids, times and logs each request.
pub(super) async fn observe(
    State(metrics): State<Arc<crate::metrics::Metrics>>,
    mut request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let id: Arc<str> = new_id().into();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |matched| matched.as_str().to_owned());
    let surface = crate::metrics::surface(&route);
    let method = request.method().clone();
    let caller = CallerSlot::default();
    request.extensions_mut().insert(caller.clone());
    let response = REQUEST.scope(Arc::clone(&id), next.run(request)).await;
    let took = started.elapsed();
    metrics.observe(surface, took);
    tracing::info!(
        target: "todokit::request",
        request = %id,
        caller = caller.0.get().copied().unwrap_or("none"),
        method = %method,
        route = %route,
        status = response.status().as_u16(),
        duration_ms = took.as_secs_f64() * 1000.0,
        "request"
    );
    response
}
