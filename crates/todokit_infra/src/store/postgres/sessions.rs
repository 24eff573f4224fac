//! What a server keeps about its MCP sessions in the database, so that
//! another server process on the same database can take a session's next
//! request: who opened it (a namespace, or the operator) and the client's
//! `initialize` parameters, as JSON. The table is made by the first server
//! that keeps a session (conversation stores that never serve MCP never
//! have it); a row older than [`SESSION_RETENTION`] is removed then too.

use super::{Failure, PostgresStore};
use todokit_app::StoreError;

/// How long a kept session can be taken up by another process.
pub const SESSION_RETENTION: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

const CREATE: &str = "
SELECT pg_advisory_xact_lock(7402211771);
CREATE TABLE IF NOT EXISTS todokit_mcp_sessions (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    state JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);";

impl PostgresStore {
    /// Makes the sessions table once per store, and clears rows past their
    /// retention.
    async fn sessions_table(&self) -> Result<(), StoreError> {
        self.sessions_ready
            .get_or_try_init(|| async {
                let mut client = self.client().await?;
                let transaction = client
                    .transaction()
                    .await
                    .map_err(|e| super::database("create a table in", &self.location, &e))?;
                transaction
                    .batch_execute(&format!(
                        "{CREATE} DELETE FROM todokit_mcp_sessions WHERE created_at < now() - interval '{} seconds';",
                        SESSION_RETENTION.as_secs()
                    ))
                    .await
                    .map_err(|e| super::database("create a table in", &self.location, &e))?;
                transaction
                    .commit()
                    .await
                    .map_err(|e| super::database("create a table in", &self.location, &e))
            })
            .await
            .map(|_| ())
    }

    /// Keeps session `id`, opened by `owner`, with `state`. A session kept
    /// already stays as it was: nothing may rewrite whose a session is.
    pub async fn keep_session(
        &self,
        id: &str,
        owner: &str,
        state: &serde_json::Value,
    ) -> Result<(), StoreError> {
        self.sessions_table().await?;
        let client = self.client().await?;
        self.bounded("write to", client, async |client| {
            client
                .execute(
                    "INSERT INTO todokit_mcp_sessions (id, owner, state) VALUES ($1, $2, $3) \
                     ON CONFLICT (id) DO NOTHING",
                    &[&id, &owner, state],
                )
                .await
        })
        .await
        .map_err(Failure::into_error)
        .map(|_| ())
    }

    /// The owner and state of session `id`, if it is kept.
    pub async fn session(&self, id: &str) -> Result<Option<(String, serde_json::Value)>, StoreError> {
        self.sessions_table().await?;
        let client = self.client().await?;
        let row = self
            .bounded("read from", client, async |client| {
                client
                    .query_opt(
                        "SELECT owner, state FROM todokit_mcp_sessions WHERE id = $1",
                        &[&id],
                    )
                    .await
            })
            .await
            .map_err(Failure::into_error)?;
        Ok(row.map(|row| (row.get(0), row.get(1))))
    }

    /// Forgets session `id`.
    pub async fn forget_session(&self, id: &str) -> Result<(), StoreError> {
        self.sessions_table().await?;
        let client = self.client().await?;
        self.bounded("write to", client, async |client| {
            client
                .execute("DELETE FROM todokit_mcp_sessions WHERE id = $1", &[&id])
                .await
        })
        .await
        .map_err(Failure::into_error)
        .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::super::tests::{unique, url};
    use super::*;

    #[tokio::test]
    async fn a_kept_session_cannot_be_taken_over_by_keeping_it_again() {
        let store = PostgresStore::connect(&url(), 2)
            .await
            .expect("the test database is reachable");
        let id = unique("session");
        store
            .keep_session(&id, "acme:1", &json!({"first": true}))
            .await
            .unwrap();
        store
            .keep_session(&id, "evil:2", &json!({"second": true}))
            .await
            .unwrap();
        let kept = store.session(&id).await.unwrap();
        store.forget_session(&id).await.unwrap();
        let actual = (kept, store.session(&id).await.unwrap());
        let expected = (Some(("acme:1".to_owned(), json!({"first": true}))), None);
        assert_eq!(actual, expected);
    }
}
