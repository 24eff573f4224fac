//! [`Parts`]: what a kit's calls run on.

use std::future::Future;
use std::sync::Arc;

use todokit::TodoWriteService;

/// The service and, for PostgreSQL, the private runtime its calls run on.
#[derive(Clone)]
pub(crate) struct Parts {
    pub(crate) service: TodoWriteService,
    pub(crate) runtime: Option<Arc<tokio::runtime::Runtime>>,
}

impl Parts {
    /// Runs `future` to its end on this thread, or on the private runtime
    /// when the store needs one. Called with the GIL released.
    pub(crate) fn block<F: Future>(&self, future: F) -> F::Output {
        match &self.runtime {
            Some(runtime) => runtime.block_on(future),
            None => futures_executor::block_on(future),
        }
    }
}
