//! Sessions shared by every `serve` process on one store (a database):
//! rmcp's session-store hook keeps each session's `initialize` parameters
//! in rows beside the store's lists ([`SessionRows`], implemented by each
//! kind of store that can share them), so any process can take a
//! session's next request, and
//! who opened the session is kept beside them, so a process that has not
//! seen the session yet still answers it only for its opener. Every use
//! looks the session up, so one ended anywhere ends everywhere; rows idle
//! past [`SESSION_IDLE_LIMIT`] are swept by whichever process uses the
//! table, at most once every [`SWEEP_EVERY`].

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::transport::streamable_http_server::session::{SessionState, SessionStore, SessionStoreError};
use todokit::{OpenError, StoreLocation};

use super::session_rows::{SESSION_TOUCH_INTERVAL, SessionRows};
use super::tokens::Caller;

/// How long a kept session may go unused before any process removes it:
/// rmcp's own idle limit (after which the process holding the session
/// ends it) and the lag of the use notes ([`SESSION_TOUCH_INTERVAL`]).
pub const SESSION_IDLE_LIMIT: Duration = Duration::from_secs(
    rmcp::transport::streamable_http_server::session::local::SessionConfig::DEFAULT_KEEP_ALIVE.as_secs()
        + SESSION_TOUCH_INTERVAL.as_secs(),
);

/// How often one process sweeps idle sessions at most.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

tokio::task_local! {
    /// Who is opening a session, while rmcp stores it.
    static OPENER: String;
}

/// How a caller is written in the table: its namespace, or `*` for the
/// operator (a namespace cannot be `*`).
pub fn owner_key(caller: &Caller) -> String {
    match caller {
        Caller::Operator => "*".to_owned(),
        // The namespace and which token: a session answers only the token
        // that opened it, and a revoked token's sessions open for no other.
        Caller::Tenant { namespace, token } => format!("{namespace}:{}", token.hex()),
    }
}

/// Runs `opening` (a request that may open a session) with `caller` as the
/// opener the store writes.
pub async fn opened_by<T>(caller: &Caller, opening: impl Future<Output = T>) -> T {
    OPENER.scope(owner_key(caller), opening).await
}

/// The sessions every process on one store shares.
#[derive(Clone, Debug)]
pub struct SharedSessions {
    table: Arc<dyn SessionRows>,
    /// When this process last swept (or `None`: not yet).
    swept: Arc<Mutex<Option<Instant>>>,
}

impl SharedSessions {
    /// Sessions kept in `rows`.
    pub fn new(rows: Arc<dyn SessionRows>) -> Self {
        Self {
            table: rows,
            swept: Arc::default(),
        }
    }

    /// The sessions shared through the store at `location`, when its kind
    /// of store keeps them (a database); `None` for a store that only this
    /// process serves (memory), or that shares no sessions (a folder).
    pub fn at(location: &StoreLocation) -> Result<Option<Self>, OpenError> {
        let rows: Option<Arc<dyn SessionRows>> = match location {
            #[cfg(feature = "postgres")]
            StoreLocation::Database(url) => Some(Arc::new(super::session_table::SessionTable::at(url)?)),
            _ => None,
        };
        Ok(rows.map(Self::new))
    }

    /// Who opened session `id`, if the database still keeps it (`None`:
    /// it ended, here or on another process, or went idle), noting the use.
    pub async fn owner(&self, id: &str) -> Result<Option<String>, String> {
        self.sweep_when_due();
        match self.table.use_session(id).await {
            Ok(owner) => Ok(owner),
            Err(error) => Err(error.to_string()),
        }
    }

    /// Sweeps idle sessions in the background when [`SWEEP_EVERY`] has
    /// passed since this process last did (a failed sweep is tried again
    /// at the next one: nothing is lost by waiting).
    fn sweep_when_due(&self) {
        {
            let mut swept = self.swept.lock().unwrap_or_else(PoisonError::into_inner);
            if swept.is_some_and(|at| at.elapsed() < SWEEP_EVERY) {
                return;
            }
            *swept = Some(Instant::now());
        }
        let table = Arc::clone(&self.table);
        tokio::spawn(async move {
            if let Err(error) = table.sweep(SESSION_IDLE_LIMIT).await {
                tracing::warn!(target: "todokit::serve", error = %error, "idle MCP sessions not swept");
            }
        });
    }

    /// rmcp's view of this table.
    pub fn session_store(&self) -> Arc<dyn SessionStore> {
        Arc::new(self.clone())
    }
}

#[async_trait::async_trait]
impl SessionStore for SharedSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let Some((_, state)) = self.table.get(session_id).await? else {
            return Ok(None);
        };
        Ok(Some(serde_json::from_value(state)?))
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        self.sweep_when_due();
        // A session is only stored while its opener's request runs.
        let owner = OPENER
            .try_with(Clone::clone)
            .map_err(|_| "no opener for a new session")?;
        let state = serde_json::to_value(state)?;
        Ok(self.table.keep(session_id, &owner, &state).await?)
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        Ok(self.table.forget(session_id).await?)
    }
}
