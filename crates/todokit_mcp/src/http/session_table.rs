//! What a server keeps about its MCP sessions in the database, so that
//! another server process on the same database can take a session's next
//! request: who opened it (a namespace, or the operator), the client's
//! `initialize` parameters, as JSON, and when it was last used. The table
//! is this crate's own, beside the store's conversations, reached through
//! the store's pooled connections ([`PostgresStore::on_connection`]); it
//! is made by the first server that keeps a session (conversation stores
//! that never serve MCP never have it).
//!
//! A session is looked up on every use ([`SessionTable::use_session`]),
//! so one ended on any process (its row deleted) ends on all of them; the
//! same statement notes the use at most once every
//! [`SESSION_TOUCH_INTERVAL`], so a busy session costs a write a minute,
//! not one a request. Rows unused for longer than the server's idle limit
//! are removed by [`SessionTable::sweep`].

use std::sync::Arc;
use std::time::Duration;

use todokit::StoreError;
use todokit::infra::store::PostgresStore;

use super::session_rows::{SESSION_TOUCH_INTERVAL, SessionRows};

/// The pool of connections a server's sessions table keeps: sessions are
/// read once per process and session, so a few are plenty.
const POOL_SIZE: usize = 4;

/// Made in one implicit transaction under an advisory lock, so servers
/// starting together do not race to make it.
const CREATE: &str = "
SELECT pg_advisory_xact_lock(7402211771);
CREATE TABLE IF NOT EXISTS todokit_mcp_sessions (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    state JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
ALTER TABLE todokit_mcp_sessions
    ADD COLUMN IF NOT EXISTS last_used_at TIMESTAMPTZ NOT NULL DEFAULT now();";

/// The owner of session `$1`, noting its use when the last note is older
/// than `$2` seconds (one round trip either way).
const USE: &str = "
WITH found AS (
    SELECT id, owner, last_used_at FROM todokit_mcp_sessions WHERE id = $1
), noted AS (
    UPDATE todokit_mcp_sessions AS kept SET last_used_at = now()
    FROM found
    WHERE kept.id = found.id AND found.last_used_at < now() - make_interval(secs => $2)
)
SELECT owner FROM found";

/// The MCP sessions table in a PostgreSQL store's database.
#[derive(Clone, Debug)]
pub struct SessionTable {
    store: PostgresStore,
    /// Set once the table is known to exist.
    ready: Arc<tokio::sync::OnceCell<()>>,
}

impl SessionTable {
    /// The table in `store`'s database (made on first use).
    pub fn new(store: PostgresStore) -> Self {
        Self {
            store,
            ready: Arc::default(),
        }
    }

    /// The table in the database at `url`, over a small pool of its own
    /// (connected on first use).
    pub fn at(url: &str) -> Result<Self, StoreError> {
        Ok(Self::new(PostgresStore::lazy(url, POOL_SIZE)?))
    }

    /// Makes the table once per process (adding `last_used_at` to a table
    /// made before it).
    async fn made(&self) -> Result<(), StoreError> {
        self.ready
            .get_or_try_init(|| async {
                // Several statements in one simple query run as one
                // implicit transaction: the advisory lock is held to its end.
                self.store
                    .on_connection("create a table in", async |client| {
                        client.batch_execute(CREATE).await
                    })
                    .await
            })
            .await
            .map(|_| ())
    }
}

#[async_trait::async_trait]
impl SessionRows for SessionTable {
    /// Keeps session `id`, opened by `owner`, with `state`. A session kept
    /// already stays as it was: nothing may rewrite whose a session is.
    async fn keep(&self, id: &str, owner: &str, state: &serde_json::Value) -> Result<(), StoreError> {
        self.made().await?;
        self.store
            .on_connection("write to", async |client| {
                client
                    .execute(
                        "INSERT INTO todokit_mcp_sessions (id, owner, state) VALUES ($1, $2, $3) \
                         ON CONFLICT (id) DO NOTHING",
                        &[&id, &owner, state],
                    )
                    .await
            })
            .await
            .map(|_| ())
    }

    /// The owner and state of session `id`, if it is kept.
    async fn get(&self, id: &str) -> Result<Option<(String, serde_json::Value)>, StoreError> {
        self.made().await?;
        let row = self
            .store
            .on_connection("read from", async |client| {
                client
                    .query_opt(
                        "SELECT owner, state FROM todokit_mcp_sessions WHERE id = $1",
                        &[&id],
                    )
                    .await
            })
            .await?;
        Ok(row.map(|row| (row.get(0), row.get(1))))
    }

    /// The owner of session `id` when it is still kept (`None`: it ended,
    /// on this process or another, or was swept), noting the use (see
    /// [`SESSION_TOUCH_INTERVAL`]).
    async fn use_session(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.made().await?;
        let every = SESSION_TOUCH_INTERVAL.as_secs_f64();
        let row = self
            .store
            .on_connection("read from", async |client| {
                client.query_opt(USE, &[&id, &every]).await
            })
            .await?;
        Ok(row.map(|row| row.get(0)))
    }

    /// Forgets session `id`.
    async fn forget(&self, id: &str) -> Result<(), StoreError> {
        self.made().await?;
        self.store
            .on_connection("write to", async |client| {
                client
                    .execute("DELETE FROM todokit_mcp_sessions WHERE id = $1", &[&id])
                    .await
            })
            .await
            .map(|_| ())
    }

    /// Removes every session unused for longer than `idle`; how many.
    async fn sweep(&self, idle: Duration) -> Result<u64, StoreError> {
        self.made().await?;
        let idle = idle.as_secs_f64();
        self.store
            .on_connection("write to", async |client| {
                client
                    .execute(
                        "DELETE FROM todokit_mcp_sessions WHERE last_used_at < now() - make_interval(secs => $1)",
                        &[&idle],
                    )
                    .await
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    fn url() -> String {
        std::env::var("TODOKIT_TEST_POSTGRES_URL")
            .expect("TODOKIT_TEST_POSTGRES_URL must name a test database: run the tests with `make test`")
    }

    fn unique(name: &str) -> String {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        format!("{name}-{}-{nanos}", std::process::id())
    }

    /// A connection of its own, to age rows as time would.
    async fn admin() -> todokit::infra::store::tokio_postgres::Client {
        use todokit::infra::store::tokio_postgres;
        let (client, connection) = tokio_postgres::connect(&url(), tokio_postgres::NoTls)
            .await
            .expect("the test database is reachable");
        tokio::spawn(connection);
        client
    }

    async fn table() -> SessionTable {
        SessionTable::new(
            PostgresStore::connect(&url(), 2)
                .await
                .expect("the test database is reachable"),
        )
    }

    #[tokio::test]
    async fn a_kept_session_cannot_be_taken_over_by_keeping_it_again() {
        let store = table().await;
        let id = unique("session");
        store.keep(&id, "acme:1", &json!({"first": true})).await.unwrap();
        store.keep(&id, "evil:2", &json!({"second": true})).await.unwrap();
        let kept = store.get(&id).await.unwrap();
        store.forget(&id).await.unwrap();
        let actual = (kept, store.get(&id).await.unwrap());
        let expected = (Some(("acme:1".to_owned(), json!({"first": true}))), None);
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_use_finds_a_kept_session_and_none_once_it_is_forgotten_or_swept() {
        let store = table().await;
        let (forgotten, swept, kept) = (unique("forgotten"), unique("swept"), unique("kept"));
        for id in [&forgotten, &swept, &kept] {
            store.keep(id, "acme:1", &json!({})).await.unwrap();
        }
        let used = store.use_session(&forgotten).await.unwrap();
        store.forget(&forgotten).await.unwrap();
        let after_forgetting = store.use_session(&forgotten).await.unwrap();
        // Only the swept session looks idle for a minute.
        let client = admin().await;
        client
            .execute(
                "UPDATE todokit_mcp_sessions SET last_used_at = now() - interval '10 minutes' WHERE id = $1",
                &[&swept],
            )
            .await
            .unwrap();
        let removed = store.sweep(Duration::from_secs(300)).await.unwrap();
        let actual = (
            used,
            after_forgetting,
            removed >= 1,
            store.use_session(&swept).await.unwrap(),
            store.use_session(&kept).await.unwrap(),
        );
        store.forget(&kept).await.unwrap();
        let expected = (
            Some("acme:1".to_owned()),
            None,
            true,
            None,
            Some("acme:1".to_owned()),
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_use_notes_the_time_only_when_the_last_note_is_a_minute_old() {
        let store = table().await;
        let id = unique("touched");
        store.keep(&id, "acme:1", &json!({})).await.unwrap();
        let client = admin().await;
        let age = async || -> f64 {
            let row = client
                .query_one(
                    "SELECT extract(epoch FROM now() - last_used_at)::float8 FROM todokit_mcp_sessions WHERE id = $1",
                    &[&id],
                )
                .await
                .unwrap();
            row.get(0)
        };
        let set = async |seconds: f64| {
            client
                .execute(
                    "UPDATE todokit_mcp_sessions SET last_used_at = now() - make_interval(secs => $2) WHERE id = $1",
                    &[&id, &seconds],
                )
                .await
                .unwrap();
        };
        // Used 30 s ago: this use writes nothing.
        set(30.0).await;
        store.use_session(&id).await.unwrap();
        let left = age().await >= 29.0;
        // Used 2 minutes ago: this use is noted.
        set(120.0).await;
        store.use_session(&id).await.unwrap();
        let noted = age().await < 5.0;
        store.forget(&id).await.unwrap();
        assert_eq!((left, noted), (true, true));
    }
}
