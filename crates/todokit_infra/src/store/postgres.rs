//! A PostgreSQL store, for hosts that run many agent workers against one
//! database. One row per conversation; a save is a compare-and-swap on the
//! version in a single statement; the table is created by a migration the
//! store runs on connect; connections come from a pool; live feeds are
//! woken by `LISTEN/NOTIFY` (`postgres_notify`).

use std::sync::Arc;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use todokit_app::{ConversationContext, StoreError, StoredConversation, Wake, WatchGuard};
use todokit_domain::TodoState;
use tokio_postgres::NoTls;

use super::postgres_notify::Listener;

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
/// (`postgres_notify`), in the same statement: only a row that was written
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
mod tests {
    //! These tests talk to a real PostgreSQL server: `make test` starts a
    //! throwaway cluster and sets `TODOKIT_TEST_POSTGRES_URL`.
    use super::*;
    use pretty_assertions::assert_eq;
    use std::sync::Arc;
    use todokit_app::{ManualClock, TodoWriteService, profiles};
    use todokit_domain::Todo;

    fn url() -> String {
        std::env::var("TODOKIT_TEST_POSTGRES_URL")
            .expect("TODOKIT_TEST_POSTGRES_URL must name a test database: run the tests with `make test`")
    }

    async fn store() -> PostgresStore {
        PostgresStore::connect(&url(), 8)
            .await
            .expect("the test database is reachable")
    }

    fn unique(name: &str) -> String {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        format!("{name}-{}-{nanos}", std::process::id())
    }

    #[tokio::test]
    async fn save_then_load_and_a_stale_version_is_a_conflict() {
        let store = store().await;
        let conversation = unique("cas");
        let first = TodoState::flat(vec![Todo::new("a")]).version(1u64);
        store.save(&conversation, 0, &first).await.unwrap();
        let stale = store.save(&conversation, 0, &first).await;
        let second = TodoState::flat(vec![Todo::new("b")]).version(2u64);
        store.save(&conversation, 1, &second).await.unwrap();
        let wrong = store.save(&conversation, 1, &second).await;
        let actual = (
            matches!(
                stale,
                Err(StoreError::Conflict {
                    expected: 0,
                    found: 1,
                    ..
                })
            ),
            matches!(
                wrong,
                Err(StoreError::Conflict {
                    expected: 1,
                    found: 2,
                    ..
                })
            ),
            store.load(&conversation).await.unwrap(),
            store.load(&unique("missing")).await.unwrap(),
        );
        let expected = (true, true, second, TodoState::new());
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn fields_this_build_does_not_know_survive_and_an_unknown_shape_is_refused() {
        let store = store().await;
        let client = store.client().await.unwrap();
        let insert = |conversation: String, state: serde_json::Value| {
            let client = &client;
            async move {
                client
                    .execute(
                        "INSERT INTO todokit_conversations (conversation, version, state) VALUES ($1, 3, $2)",
                        &[&conversation, &state],
                    )
                    .await
                    .unwrap();
            }
        };
        let newer = unique("foreign");
        insert(
            newer.clone(),
            serde_json::json!({"version": 3, "archive": [1], "phases": [{"name": "", "color": "teal", "tasks": [
                {"content": "keep me", "status": "pending", "estimate": 3}
            ]}]}),
        )
        .await;
        let odd = unique("odd-shape");
        insert(
            odd.clone(),
            serde_json::json!({"version": 3, "lists": [{"items": []}]}),
        )
        .await;
        let service = TodoWriteService::new(
            profiles::by_name("claude-code").unwrap(),
            Arc::new(store.clone()),
            Arc::new(ManualClock::new(0)),
        );
        let args = r#"{"todos":[{"content":"keep me","status":"in_progress","activeForm":"Keeping"}]}"#;
        let kept = service.call(&newer, "TodoWrite", args).await.unwrap();
        let refused = service.call(&odd, "TodoWrite", args).await;
        let read = |conversation: String| {
            let client = &client;
            async move {
                let row = client
                    .query_one(
                        "SELECT state FROM todokit_conversations WHERE conversation = $1",
                        &[&conversation],
                    )
                    .await
                    .unwrap();
                row.get::<_, serde_json::Value>(0)
            }
        };
        let stored = read(newer).await;
        let actual = (
            kept.is_error,
            stored["archive"].clone(),
            stored["phases"][0]["color"].clone(),
            stored["phases"][0]["tasks"][0]["estimate"].clone(),
            stored["phases"][0]["tasks"][0]["status"].clone(),
            refused
                .map_err(|e| e.to_string().contains("cannot be read"))
                .err(),
            read(odd).await,
        );
        let expected = (
            false,
            serde_json::json!([1]),
            serde_json::json!("teal"),
            serde_json::json!(3),
            serde_json::json!("in_progress"),
            Some(true),
            serde_json::json!({"version": 3, "lists": [{"items": []}]}),
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn eight_racing_claimers_through_separate_pools_get_exactly_one_winner_every_round() {
        const CLAIMERS: usize = 8;
        const ROUNDS: usize = 10;
        let mut services = Vec::new();
        for _ in 0..CLAIMERS {
            // Separate pools, as separate worker processes would have.
            services.push(TodoWriteService::new(
                profiles::by_name("claude-tasks").unwrap(),
                Arc::new(store().await),
                Arc::new(ManualClock::new(0)),
            ));
        }
        let mut actual = Vec::new();
        for round in 0..ROUNDS {
            let conversation = unique(&format!("claim-{round}"));
            let created = services[0]
                .call(
                    &conversation,
                    "TaskCreate",
                    r#"{"subject":"Ship","description":"Tag it"}"#,
                )
                .await
                .unwrap();
            assert!(!created.is_error, "{}", created.content);
            let racers: Vec<_> = services
                .iter()
                .enumerate()
                .map(|(n, service)| {
                    let (service, conversation) = (service.clone(), conversation.clone());
                    tokio::spawn(async move {
                        let args = format!(r#"{{"taskId":"1","owner":"agent-{n}","status":"in_progress"}}"#);
                        let result = service.call(&conversation, "TaskUpdate", &args).await.unwrap();
                        (!result.is_error).then(|| format!("agent-{n}"))
                    })
                })
                .collect();
            let mut winners = Vec::new();
            for racer in racers {
                winners.extend(racer.await.unwrap());
            }
            let stored = store().await.load(&conversation).await.unwrap();
            let owner = stored.find("1").and_then(|task| task.owner.clone());
            actual.push((winners.len(), winners.first().cloned() == owner));
        }
        let expected = vec![(1, true); ROUNDS];
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn conversations_are_listed_with_their_lists_and_change_times() {
        let store = store().await;
        let prefix = unique("listed");
        let (a, b) = (format!("{prefix}-a"), format!("{prefix}-b"));
        store
            .save(&a, 0, &TodoState::flat(vec![Todo::new("x")]).version(1u64))
            .await
            .unwrap();
        store.save(&b, 0, &TodoState::new().version(1u64)).await.unwrap();
        let listed = store.conversations().await.unwrap();
        let mut actual: Vec<(String, usize, bool)> = listed
            .into_iter()
            .filter(|c| c.id.starts_with(&prefix))
            .map(|c| {
                (
                    c.id,
                    c.state.map(|s| s.tasks().count()).unwrap_or(99),
                    c.changed_at.is_some(),
                )
            })
            .collect();
        actual.sort();
        assert_eq!(actual, vec![(a, 1, true), (b, 0, true)]);
    }

    #[tokio::test]
    async fn an_unreachable_database_is_a_clear_error() {
        let dir = std::env::temp_dir().join(unique("nowhere"));
        let url = format!(
            "host={} port=1 user=nobody dbname=none connect_timeout=2",
            dir.display()
        );
        let actual = PostgresStore::connect(&url, 1)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string());
        let message = actual.err().unwrap_or_default();
        assert!(
            message.starts_with("could not connect to postgres database \"none\""),
            "{message}"
        );
    }

    #[tokio::test]
    async fn a_second_connect_finds_the_schema_in_place() {
        let first = store().await;
        let conversation = unique("migrate");
        first
            .save(&conversation, 0, &TodoState::new().version(1u64))
            .await
            .unwrap();
        let second = store().await;
        let actual = second.load(&conversation).await.unwrap().version;
        assert_eq!(actual, 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_writers_through_separate_pools_lose_no_update() {
        const WRITERS: u64 = 8;
        const CALLS: u64 = 10;
        let conversation = unique("race");
        let mut handles = Vec::new();
        for writer in 0..WRITERS {
            // Separate services, as separate worker processes would have.
            let service = TodoWriteService::new(
                profiles::by_name("claude-code").unwrap(),
                Arc::new(store().await),
                Arc::new(ManualClock::new(0)),
            );
            let conversation = conversation.clone();
            handles.push(tokio::spawn(async move {
                for call in 0..CALLS {
                    let args = format!(r#"{{"todos":[{{"content":"w{writer} c{call}","status":"pending","activeForm":"x"}}]}}"#);
                    let result = service.call(&conversation, "TodoWrite", &args).await.unwrap();
                    assert!(!result.is_error, "{}", result.content);
                }
            }));
        }
        for handle in handles {
            handle.await.unwrap();
        }
        let actual = store().await.load(&conversation).await.unwrap().version;
        assert_eq!(actual, WRITERS * CALLS);
    }
}
