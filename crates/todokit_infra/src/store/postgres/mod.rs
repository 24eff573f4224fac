//! A PostgreSQL store, for hosts that run many agent workers against one
//! database. One row per conversation; a save is a compare-and-swap on the
//! version in a single statement; the table is created by a migration the
//! store runs on connect; connections come from a pool; live feeds are
//! woken by `LISTEN/NOTIFY` (`notify`). No wait is unbounded (`limits`),
//! and a write whose answer was lost is read back before it is reported
//! (`outcome`).

use std::sync::Arc;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use todokit_app::{
    ConnectionUse, ConversationContext, Pruned, StoreError, StoredConversation, Wake, WatchGuard,
};
use todokit_domain::{Timestamp, TodoState};

mod errors;
mod lifecycle;
mod limits;
mod listing;
mod notify;
mod outcome;
mod tls;

/// The PostgreSQL driver [`PostgresStore::on_connection`] hands a
/// connection of, at the version the store uses.
pub use tokio_postgres;

use errors::{backend, database, describe};
pub use lifecycle::PRUNE_BATCH;
use limits::Limits;
pub use limits::{DEFAULT_CONNECT_TIMEOUT, DEFAULT_STATEMENT_TIMEOUT};
pub use notify::CHANNEL as NOTIFY_CHANNEL;
pub use notify::HEARTBEAT as LISTEN_HEARTBEAT;
use notify::Listener;

/// Connections a store keeps open at most, by default.
pub const DEFAULT_POOL_SIZE: usize = 16;

/// The schema this build writes, as the migrations table records it.
pub const SCHEMA_VERSION: i32 = 2;

/// Several workers may start at once: the migration runs in a transaction
/// under an advisory lock, so only one creates the tables. Schema 2 adds
/// each row's summary, written by every save in the same statement as the
/// list; an update that changes the list but not the summary (a hand edit
/// in SQL) clears it (the trigger), and listing then reads that row's list.
const MIGRATION: &str = "
SELECT pg_advisory_xact_lock(7402211770);
CREATE TABLE IF NOT EXISTS todokit_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS todokit_conversations (
    conversation TEXT PRIMARY KEY,
    version BIGINT NOT NULL CHECK (version > 0),
    state JSONB NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO todokit_schema (version) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM todokit_schema);
DO $migrate$ BEGIN
IF (SELECT max(version) FROM todokit_schema) < 2 THEN
    ALTER TABLE todokit_conversations ADD COLUMN IF NOT EXISTS summary JSONB;
    CREATE INDEX IF NOT EXISTS todokit_conversations_updated_at ON todokit_conversations (updated_at DESC);
    CREATE OR REPLACE FUNCTION todokit_forget_stale_summary() RETURNS trigger LANGUAGE plpgsql AS $trigger$
    BEGIN
        IF NEW.state IS DISTINCT FROM OLD.state AND NEW.summary IS NOT DISTINCT FROM OLD.summary THEN
            NEW.summary := NULL;
        END IF;
        RETURN NEW;
    END $trigger$;
    CREATE TRIGGER todokit_forget_stale_summary BEFORE UPDATE ON todokit_conversations
        FOR EACH ROW EXECUTE FUNCTION todokit_forget_stale_summary();
    UPDATE todokit_schema SET version = 2;
END IF;
END $migrate$;
";

/// The longest the schema migration may take, waiting for another process
/// that migrates the same database included. Longer than a statement's
/// limit: every process that starts at once waits on the one that migrates.
pub const MIGRATION_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs [`MIGRATION`] in one transaction: all of it or, on any error, none
/// (the transaction is rolled back when dropped uncommitted), under a
/// statement limit of its own (see [`MIGRATION_TIMEOUT`]).
async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), tokio_postgres::Error> {
    let transaction = client.transaction().await?;
    transaction
        .batch_execute(&format!(
            "SET LOCAL statement_timeout = {};{MIGRATION}",
            MIGRATION_TIMEOUT.as_millis()
        ))
        .await?;
    transaction.commit().await
}

/// Inserts the first version, or moves an existing row from `expected` to
/// the new version; a row at any other version is left alone and no row is
/// returned, which is the conflict.
/// A save that commits also notifies the live feeds of every machine
/// (`notify`), in the same statement: only a row that was written
/// notifies, and the notification goes out with the commit.
const SAVE: &str = "
WITH saved AS (
INSERT INTO todokit_conversations AS c (conversation, version, state, summary)
VALUES ($1, $2, $3::text::jsonb, $5::text::jsonb)
ON CONFLICT (conversation) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state,
    summary = EXCLUDED.summary, updated_at = now()
WHERE c.version = $4
RETURNING c.version)
SELECT version, pg_notify('todokit_changes', encode(sha256(convert_to($1, 'UTF8')), 'hex')) FROM saved";

const UPDATE: &str = "
WITH saved AS (
UPDATE todokit_conversations SET version = $2, state = $3::text::jsonb, summary = $5::text::jsonb, updated_at = now()
WHERE conversation = $1 AND version = $4
RETURNING version)
SELECT version, pg_notify('todokit_changes', encode(sha256(convert_to($1, 'UTF8')), 'hex')) FROM saved";

/// A row's version and state, the state as JSON text.
const LOAD: &str = "SELECT version, state::text FROM todokit_conversations WHERE conversation = $1";

/// Conversations in a PostgreSQL table.
#[derive(Clone)]
pub struct PostgresStore {
    pool: Pool,
    location: String,
    /// Where to open the listening connection of live feeds.
    config: tls::Target,
    /// The live feeds' watches, woken by `NOTIFY`.
    listener: Arc<Listener>,
    /// Set once the migration has run, by whichever connection came first.
    migrated: Arc<tokio::sync::OnceCell<()>>,
    /// How long each wait on the database may take.
    limits: Limits,
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
        let (plain, tls) = tls::split_url(url).map_err(|reason| StoreError::Database {
            action: "parse",
            location: url.to_owned(),
            message: reason,
            code: None,
        })?;
        let mut config: tokio_postgres::Config = plain.parse().map_err(|e| backend("parse", url, e))?;
        // libpq never asks for TLS over a Unix socket (the server would say
        // no): `prefer` there is a plain connection, without the round trip.
        #[cfg(unix)]
        if config.get_ssl_mode() == tokio_postgres::config::SslMode::Prefer
            && config
                .get_hosts()
                .iter()
                .all(|host| matches!(host, tokio_postgres::config::Host::Unix(_)))
        {
            config.ssl_mode(tokio_postgres::config::SslMode::Disable);
        }
        let limits = Limits::apply(&mut config);
        let location = describe(&config);
        let tls = tls::connector(&tls).map_err(|reason| StoreError::Database {
            action: "set up TLS for",
            location: location.clone(),
            message: reason,
            code: None,
        })?;
        let manager = Manager::from_config(
            config.clone(),
            tls.clone(),
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
            config: tls::Target { config, tls },
            listener: Arc::default(),
            migrated: Arc::default(),
            limits,
        })
    }

    /// A row's state (its JSON as text: parsed straight into the list,
    /// with no tree of values between), its version taken from the row's
    /// own column.
    fn decode(&self, conversation: &str, version: i64, text: &str) -> Result<TodoState, StoreError> {
        let mut state: TodoState = serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
            location: format!("{} (conversation {conversation:?})", self.location),
            reason: format!("not a todokit list: {e}"),
        })?;
        state.version = u64::try_from(version).unwrap_or_default();
        Ok(state)
    }

    /// A pooled connection; the first one runs the migration. Waits at
    /// most the connection limit, and the migration at most
    /// [`MIGRATION_TIMEOUT`].
    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        let limit = self.limits.connection();
        let mut client = match tokio::time::timeout(limit, self.pool.get()).await {
            Ok(got) => got.map_err(|e| match e {
                deadpool_postgres::PoolError::Backend(driver) => {
                    database("connect to", &self.location, &driver)
                }
                other => backend("connect to", &self.location, other),
            })?,
            Err(_) => return Err(self.silent("connect to", limit)),
        };
        if self.migrated.initialized() {
            return Ok(client);
        }
        let migrated = self
            .migrated
            .get_or_try_init(|| async {
                match tokio::time::timeout(MIGRATION_TIMEOUT, migrate(&mut client)).await {
                    Ok(done) => done.map_err(|e| database("migrate", &self.location, &e)),
                    Err(_) => Err(self.silent("migrate", MIGRATION_TIMEOUT)),
                }
            })
            .await
            .map(|_| ());
        match migrated {
            Ok(()) => Ok(client),
            Err(error) => {
                // A connection whose migration failed or timed out may sit
                // in an open or aborted transaction: closed, never pooled.
                drop(deadpool_postgres::Object::take(client));
                Err(error)
            }
        }
    }

    /// `query` on `client`, waiting at most the statement limit; a
    /// connection that gave no answer in time is closed, not reused.
    async fn bounded<T>(
        &self,
        action: &'static str,
        mut client: deadpool_postgres::Object,
        query: impl AsyncFnOnce(&mut deadpool_postgres::Object) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, Failure> {
        let answered = match self.limits.answer() {
            Some(limit) => match tokio::time::timeout(limit, query(&mut client)).await {
                Ok(answered) => answered,
                Err(_) => {
                    drop(deadpool_postgres::Object::take(client));
                    return Err(Failure::Unanswered(self.silent(action, limit)));
                }
            },
            None => query(&mut client).await,
        };
        answered.map_err(|error| match error.as_db_error() {
            // The server answered with a refusal: nothing it did stands.
            Some(_) => Failure::Refused(database(action, &self.location, &error)),
            None => Failure::Unanswered(database(action, &self.location, &error)),
        })
    }

    /// Runs `work` on one of the store's pooled connections, under the
    /// same time limits as the store's own statements (a connection that
    /// gives no answer in time is closed, not reused): for a host's own
    /// tables beside the conversations, such as the MCP server's sessions.
    /// `action` words an error the way the store's own do (`"read from"`,
    /// `"write to"`); the error names the database as the store's do.
    pub async fn on_connection<T>(
        &self,
        action: &'static str,
        work: impl AsyncFnOnce(&tokio_postgres::Client) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, StoreError> {
        let client = self.client().await?;
        self.bounded(action, client, async |client| work(client).await)
            .await
            .map_err(Failure::into_error)
    }

    /// The error for a database that said nothing for `limit`.
    fn silent(&self, action: &'static str, limit: std::time::Duration) -> StoreError {
        let reason = format!(
            "the database gave no answer within {} s (its connect_timeout and statement_timeout, which the URL \
             may set, bound every wait)",
            limit.as_secs_f32()
        );
        backend(
            action,
            &self.location,
            std::io::Error::new(std::io::ErrorKind::TimedOut, reason),
        )
    }

    /// The stored version and state (its JSON as text) of `conversation`,
    /// if a row exists.
    async fn row(&self, conversation: &str) -> Result<Option<(i64, String)>, StoreError> {
        let client = self.client().await?;
        let row = self
            .bounded("read from", client, async |client| {
                let statement = client.prepare_cached(LOAD).await?;
                client.query_opt(&statement, &[&conversation]).await
            })
            .await
            .map_err(Failure::into_error)?;
        Ok(row.map(|row| (row.get(0), row.get(1))))
    }
}

/// How a statement failed.
enum Failure {
    /// The server answered with an error: the statement took no effect.
    Refused(StoreError),
    /// No answer came (the connection closed, or the wait ran out): the
    /// statement may or may not have taken effect.
    Unanswered(StoreError),
}

impl Failure {
    fn into_error(self) -> StoreError {
        match self {
            Self::Refused(error) | Self::Unanswered(error) => error,
        }
    }
}

#[async_trait]
impl ConversationContext for PostgresStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        match self.row(conversation).await? {
            Some((version, text)) => self.decode(conversation, version, &text),
            None => Ok(TodoState::new()),
        }
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        let client = self.client().await?;
        // Written as JSON text and cast by the server: no tree of values
        // is built on this side.
        let text = serde_json::to_string(state).map_err(|e| backend("encode for", &self.location, e))?;
        let next = i64::try_from(state.version).map_err(|e| backend("encode for", &self.location, e))?;
        let expected_db = i64::try_from(expected).map_err(|e| backend("encode for", &self.location, e))?;
        let summary =
            serde_json::to_string(&state.summary()).map_err(|e| backend("encode for", &self.location, e))?;
        let sql = if expected == 0 { SAVE } else { UPDATE };
        let saved = self
            .bounded("write to", client, async |client| {
                let statement = client.prepare_cached(sql).await?;
                client
                    .query_opt(&statement, &[&conversation, &next, &text, &expected_db, &summary])
                    .await
            })
            .await;
        match saved {
            Ok(Some(_)) => Ok(()),
            Ok(None) => {
                let found = self.load(conversation).await?.version;
                Err(StoreError::Conflict {
                    conversation: conversation.to_owned(),
                    expected,
                    found,
                })
            }
            Err(Failure::Refused(error)) => Err(error),
            Err(Failure::Unanswered(error)) => {
                let written = outcome::Written {
                    conversation,
                    expected: expected_db,
                    next,
                    state: &text,
                };
                settle(self, &written, error).await
            }
        }
    }

    fn is_durable(&self) -> bool {
        true
    }

    /// Connects (and migrates, the first time), as [`PostgresStore::connect`] does.
    async fn ready(&self) -> Result<(), StoreError> {
        drop(self.client().await?);
        Ok(())
    }

    /// Woken by the `NOTIFY` every save sends (needs a tokio runtime; the
    /// feed polls without one).
    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        self.listener.watch(&self.config, conversation, wake)
    }

    fn watch_all(&self, wake: Wake) -> Option<WatchGuard> {
        self.listener.watch_all(&self.config, wake)
    }

    /// One query over the summaries saves keep; only a row whose summary
    /// was cleared (a hand edit in SQL) or cannot be read has its list read.
    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        self.listing(None).await
    }

    async fn conversations_under(&self, prefix: &str) -> Result<Vec<StoredConversation>, StoreError> {
        self.listing(Some(prefix)).await
    }

    async fn forget(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        self.forget_row(conversation, changed_before).await
    }

    /// The pool's connections (the live feeds' one listening connection is
    /// not among them).
    fn connections(&self) -> Option<ConnectionUse> {
        let status = self.pool.status();
        Some(ConnectionUse {
            open: status.size,
            idle: status.available,
            max: status.max_size,
            waiting: status.waiting,
        })
    }

    /// One `DELETE` per batch of [`PRUNE_BATCH`] rows.
    async fn prune(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Pruned, StoreError> {
        self.prune_rows(prefix, changed_before, dry_run).await
    }

    /// One statement: see the `lifecycle` module.
    async fn save_record(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        self.save_record_row(conversation, list_version, expected, record)
            .await
    }
}

/// The outcome of a save that got no answer (`error`), settled by reading
/// the row back.
async fn settle(
    store: &PostgresStore,
    written: &outcome::Written<'_>,
    error: StoreError,
) -> Result<(), StoreError> {
    let deadline = tokio::time::Instant::now() + store.limits.connection();
    loop {
        let attempt = async {
            let row = store.row(written.conversation).await?;
            let landed = outcome::judge(written, row.as_ref());
            let still_expected = match &row {
                Some((version, _)) => *version == written.expected,
                None => written.expected == 0,
            };
            if landed == outcome::Landed::No && still_expected && !fence(store, written).await? {
                // Someone wrote between the read and the fence: look again.
                return Ok(None);
            }
            Ok::<_, StoreError>(Some(landed))
        };
        match attempt.await {
            Ok(None) if tokio::time::Instant::now() >= deadline => {
                let reason = "the list kept changing while it was read back";
                return Err(outcome::unknown(&store.location, written, &error, reason));
            }
            Ok(None) => {}
            Ok(Some(landed)) => {
                return match landed {
                    outcome::Landed::Yes => Ok(()),
                    outcome::Landed::No => Err(outcome::not_stored(error)),
                    outcome::Landed::CannotTell => Err(outcome::unknown(
                        &store.location,
                        written,
                        &error,
                        "the list read back has been changed again since, so whether this change came first cannot \
                         be told",
                    )),
                };
            }
            Err(reread) if tokio::time::Instant::now() >= deadline => {
                let reason = format!("reading the list back failed too: {reread}");
                return Err(outcome::unknown(&store.location, written, &error, &reason));
            }
            Err(_) => tokio::time::sleep(outcome::RETRY_EVERY).await,
        }
    }
}

/// Fences the row (see the module docs); `false` when it had moved on
/// meanwhile, so nothing was fenced.
async fn fence(store: &PostgresStore, written: &outcome::Written<'_>) -> Result<bool, StoreError> {
    let client = store.client().await?;
    let empty = serde_json::to_string(&todokit_domain::TodoState::new())
        .map_err(|e| backend("encode for", &store.location, e))?;
    let fenced = store
        .bounded("write to", client, async |client| match written.expected {
            0 => {
                client
                    .execute(outcome::FENCE_FIRST, &[&written.conversation, &empty])
                    .await
            }
            expected => {
                client
                    .execute(outcome::FENCE, &[&written.conversation, &expected])
                    .await
            }
        })
        .await
        .map_err(Failure::into_error)?;
    Ok(fenced == 1)
}

#[cfg(test)]
mod fault_tests;
#[cfg(test)]
mod migration_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tls_tests;
