//! A PostgreSQL store, for hosts that run many agent workers against one
//! database. One row per conversation; a save is a compare-and-swap on the
//! version in a single statement; the table is created by a migration the
//! store runs on connect; connections come from a pool; live feeds are
//! woken by `LISTEN/NOTIFY` (`notify`).

use std::sync::Arc;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use todokit_app::{ConversationContext, StoreError, StoredConversation, Wake, WatchGuard};
use todokit_domain::TodoState;
use tokio_postgres::NoTls;

mod notify;

pub use notify::CHANNEL as NOTIFY_CHANNEL;
use notify::Listener;

/// Connections a store keeps open at most, by default.
pub const DEFAULT_POOL_SIZE: usize = 16;

/// The schema this build writes, as the migrations table records it.
pub const SCHEMA_VERSION: i32 = 1;

/// Several workers may start at once: the migration runs in a transaction
/// under an advisory lock, so only one creates the tables.
const MIGRATION: &str = "
BEGIN;
SELECT pg_advisory_xact_lock(7402211770);
CREATE TABLE IF NOT EXISTS todokit_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS todokit_conversations (
    conversation TEXT PRIMARY KEY,
    version BIGINT NOT NULL CHECK (version > 0),
    state JSONB NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO todokit_schema (version) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM todokit_schema);
COMMIT;
";

/// Inserts the first version, or moves an existing row from `expected` to
/// the new version; a row at any other version is left alone and no row is
/// returned, which is the conflict.
/// A save that commits also notifies the live feeds of every machine
/// (`notify`), in the same statement: only a row that was written
/// notifies, and the notification goes out with the commit.
const SAVE: &str = "
WITH saved AS (
INSERT INTO todokit_conversations AS c (conversation, version, state) VALUES ($1, $2, $3)
ON CONFLICT (conversation) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state, updated_at = now()
WHERE c.version = $4
RETURNING c.version)
SELECT version, pg_notify('todokit_changes', encode(sha256(convert_to($1, 'UTF8')), 'hex')) FROM saved";

const UPDATE: &str = "
WITH saved AS (
UPDATE todokit_conversations SET version = $2, state = $3, updated_at = now()
WHERE conversation = $1 AND version = $4
RETURNING version)
SELECT version, pg_notify('todokit_changes', encode(sha256(convert_to($1, 'UTF8')), 'hex')) FROM saved";

/// Conversations in a PostgreSQL table.
#[derive(Clone)]
pub struct PostgresStore {
    pool: Pool,
    location: String,
    /// Where to open the listening connection of live feeds.
    config: tokio_postgres::Config,
    /// The live feeds' watches, woken by `NOTIFY`.
    listener: Arc<Listener>,
    /// Set once the migration has run, by whichever connection came first.
    migrated: Arc<tokio::sync::OnceCell<()>>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// Connects to the database `url` names (`postgres://user@host/db` or
    /// `host=/run/postgresql dbname=todokit`), runs the migration and keeps
    /// a pool of at most `pool_size` connections. An unreachable database is
    /// an error that says where it looked.
    pub async fn connect(url: &str, pool_size: usize) -> Result<Self, StoreError> {
        let store = Self::lazy(url, pool_size)?;
        drop(store.client().await?);
        Ok(store)
    }

    /// Like [`PostgresStore::connect`], but nothing touches the database
    /// until the first load or save (which runs the migration then), so it
    /// can be made outside async code. A URL that cannot be parsed is
    /// still an error at once.
    pub fn lazy(url: &str, pool_size: usize) -> Result<Self, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| backend("parse", url, e))?;
        let location = describe(&config);
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(pool_size.max(1))
            .build()
            .map_err(|e| backend("set up a pool for", &location, e))?;
        Ok(Self {
            pool,
            location,
            config,
            listener: Arc::default(),
            migrated: Arc::default(),
        })
    }

    /// A row's state, its version taken from the row's own column.
    fn decode(
        &self,
        conversation: &str,
        version: i64,
        value: serde_json::Value,
    ) -> Result<TodoState, StoreError> {
        let mut state: TodoState = serde_json::from_value(value).map_err(|e| StoreError::Corrupt {
            location: format!("{} (conversation {conversation:?})", self.location),
            reason: format!("not a todokit list: {e}"),
        })?;
        state.version = u64::try_from(version).unwrap_or_default();
        Ok(state)
    }

    /// A pooled connection; the first one runs the migration.
    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| backend("connect to", &self.location, e))?;
        self.migrated
            .get_or_try_init(|| async {
                client
                    .batch_execute(MIGRATION)
                    .await
                    .map_err(|e| backend("migrate", &self.location, e))
            })
            .await?;
        Ok(client)
    }
}

#[async_trait]
impl ConversationContext for PostgresStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT version, state FROM todokit_conversations WHERE conversation = $1",
                &[&conversation],
            )
            .await
            .map_err(|e| backend("read from", &self.location, e))?;
        let Some(row) = row else {
            return Ok(TodoState::new());
        };
        self.decode(conversation, row.get(0), row.get(1))
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        let client = self.client().await?;
        let value = serde_json::to_value(state).map_err(|e| backend("encode for", &self.location, e))?;
        let next = i64::try_from(state.version).map_err(|e| backend("encode for", &self.location, e))?;
        let expected_db = i64::try_from(expected).map_err(|e| backend("encode for", &self.location, e))?;
        let statement = if expected == 0 { SAVE } else { UPDATE };
        let saved = client
            .query_opt(statement, &[&conversation, &next, &value, &expected_db])
            .await
            .map_err(|e| backend("write to", &self.location, e))?;
        if saved.is_some() {
            return Ok(());
        }
        let found = self.load(conversation).await?.version;
        Err(StoreError::Conflict {
            conversation: conversation.to_owned(),
            expected,
            found,
        })
    }

    fn is_durable(&self) -> bool {
        true
    }

    /// Woken by the `NOTIFY` every save sends (needs a tokio runtime; the
    /// feed polls without one).
    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        self.listener.watch(&self.config, conversation, wake)
    }

    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT conversation, version, state, (extract(epoch from updated_at) * 1000)::bigint \
                 FROM todokit_conversations",
                &[],
            )
            .await
            .map_err(|e| backend("read from", &self.location, e))?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let id: String = row.get(0);
                let version: i64 = row.get(1);
                let value: serde_json::Value = row.get(2);
                let changed_at: i64 = row.get(3);
                StoredConversation {
                    state: self.decode(&id, version, value),
                    changed_at: u64::try_from(changed_at).ok(),
                    id,
                }
            })
            .collect())
    }
}

/// Where the store connects, without the password.
fn describe(config: &tokio_postgres::Config) -> String {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .collect();
    let ports: Vec<String> = config.get_ports().iter().map(u16::to_string).collect();
    format!(
        "postgres database {:?} at {}:{}",
        config.get_dbname().unwrap_or_default(),
        hosts.join(","),
        ports.join(",")
    )
}

fn backend(action: &'static str, location: &str, error: impl std::error::Error) -> StoreError {
    // The driver's own message is often just "db error"; the reason is in
    // the sources.
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        let text = inner.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = inner.source();
    }
    StoreError::Io {
        action,
        location: location.to_owned(),
        error: std::io::Error::other(message),
    }
}

#[cfg(test)]
mod tests;
