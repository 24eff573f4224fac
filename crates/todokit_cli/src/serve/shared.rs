//! Sessions shared by every `serve` process on one PostgreSQL database:
//! rmcp's session-store hook keeps each session's `initialize` parameters
//! in the database, so any process can take a session's next request, and
//! who opened the session is kept beside them, so a process that has not
//! seen the session yet still answers it only for its opener.

use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::{SessionState, SessionStore, SessionStoreError};
use todokit::infra::store::PostgresStore;

use super::tenants::Caller;

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

/// The sessions table of a PostgreSQL store.
#[derive(Clone, Debug)]
pub struct SharedSessions {
    store: PostgresStore,
}

impl SharedSessions {
    /// Sessions kept in `store`'s database.
    pub fn new(store: PostgresStore) -> Self {
        Self { store }
    }

    /// Who opened session `id`, if the database keeps it.
    pub async fn owner(&self, id: &str) -> Result<Option<String>, String> {
        match self.store.session(id).await {
            Ok(found) => Ok(found.map(|(owner, _)| owner)),
            Err(error) => Err(error.to_string()),
        }
    }

    /// rmcp's view of this table.
    pub fn session_store(&self) -> Arc<dyn SessionStore> {
        Arc::new(self.clone())
    }
}

#[async_trait::async_trait]
impl SessionStore for SharedSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let Some((_, state)) = self.store.session(session_id).await? else {
            return Ok(None);
        };
        Ok(Some(serde_json::from_value(state)?))
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        // A session is only stored while its opener's request runs.
        let owner = OPENER
            .try_with(Clone::clone)
            .map_err(|_| "no opener for a new session")?;
        let state = serde_json::to_value(state)?;
        Ok(self.store.keep_session(session_id, &owner, &state).await?)
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        Ok(self.store.forget_session(session_id).await?)
    }
}
