//! The PostgreSQL store's tests. They talk to a real PostgreSQL server:
//! `make test` starts a throwaway cluster and sets
//! `TODOKIT_TEST_POSTGRES_URL`.

use super::*;
use pretty_assertions::assert_eq;
use std::sync::Arc;
use todokit_app::{ManualClock, TodoWriteService};
use todokit_domain::Todo;

pub(super) fn url() -> String {
    std::env::var("TODOKIT_TEST_POSTGRES_URL")
        .expect("TODOKIT_TEST_POSTGRES_URL must name a test database: run the tests with `make test`")
}

async fn store() -> PostgresStore {
    PostgresStore::connect(&url(), 8)
        .await
        .expect("the test database is reachable")
}

pub(super) fn unique(name: &str) -> String {
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
    // A subtask with its parent, type and dependency, as the tracker stores it.
    let second = TodoState::flat(vec![
        Todo::new("b").id("4a7c15").kind("epic"),
        Todo::new("c")
            .id("94f82a")
            .parent("4a7c15")
            .kind("bug")
            .blocked_by(vec!["4a7c15".to_owned()]),
    ])
    .version(2u64);
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
        crate::test_support::dialect::profile(),
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
            crate::test_support::dialect::profile(),
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
                c.summary.map(|s| s.counts.total()).unwrap_or(99),
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
            crate::test_support::dialect::profile(),
            Arc::new(store().await),
            Arc::new(ManualClock::new(0)),
        );
        let conversation = conversation.clone();
        handles.push(tokio::spawn(async move {
            for call in 0..CALLS {
                let args = format!(
                    r#"{{"todos":[{{"content":"w{writer} c{call}","status":"pending","activeForm":"x"}}]}}"#
                );
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

/// The tables as the first schema (before summaries) made them.
pub(super) const SCHEMA_1: &str = "CREATE TABLE todokit_schema (version INTEGER NOT NULL);
     INSERT INTO todokit_schema VALUES (1);
     CREATE TABLE todokit_conversations (
         conversation TEXT PRIMARY KEY,
         version BIGINT NOT NULL CHECK (version > 0),
         state JSONB NOT NULL,
         updated_at TIMESTAMPTZ NOT NULL DEFAULT now());";

/// A database of its own on the test cluster, called `name` (one a killed
/// run left is dropped first): a connection to the cluster's own database
/// (to drop it afterwards), its URL, and a connection to it.
pub(super) async fn own_database(name: &str) -> (tokio_postgres::Client, String, tokio_postgres::Client) {
    let (admin, connection) = tokio_postgres::connect(&url(), tokio_postgres::NoTls)
        .await
        .expect("the test database");
    tokio::spawn(connection);
    // One statement each: neither may run in a transaction block.
    for statement in [
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    ] {
        admin
            .batch_execute(&statement)
            .await
            .expect("a database of its own");
    }
    let own_url = match url().rsplit_once('/') {
        Some((base, _)) => format!("{base}/{name}"),
        None => panic!("the test URL names a database"),
    };
    let (own, connection) = tokio_postgres::connect(&own_url, tokio_postgres::NoTls)
        .await
        .expect("the new database");
    tokio::spawn(connection);
    (admin, own_url, own)
}

/// A database an earlier build set up (schema 1: no summaries) is moved to
/// schema 2 on connect; its rows are listed from their lists until a save
/// writes their summary.
#[tokio::test]
async fn a_schema_1_database_is_migrated_and_its_rows_are_listed_right() {
    let name = format!("todokit_v1_{}", std::process::id());
    let (admin, old_url, old) = own_database(&name).await;
    let state = TodoState::flat(vec![
        Todo::new("a")
            .status(todokit_domain::Status::InProgress)
            .active_form("Doing a"),
        Todo::new("b"),
    ]);
    let value = serde_json::to_value(&state).expect("encodes");
    old.batch_execute(SCHEMA_1).await.expect("schema 1");
    old.execute(
        "INSERT INTO todokit_conversations (conversation, version, state) VALUES ('old', 3, $1)",
        &[&value],
    )
    .await
    .expect("a row of schema 1");
    let store = PostgresStore::connect(&old_url, 2).await.expect("migrated");
    let listed: Vec<_> = store
        .conversations()
        .await
        .expect("lists")
        .into_iter()
        .map(|c| (c.id, c.summary.ok()))
        .collect();
    let version: i32 = old
        .query_one("SELECT version FROM todokit_schema", &[])
        .await
        .expect("a version")
        .get(0);
    let next = state.clone().version(4u64);
    store.save("old", 3, &next).await.expect("saved");
    let kept: Option<serde_json::Value> = old
        .query_one(
            "SELECT summary FROM todokit_conversations WHERE conversation = 'old'",
            &[],
        )
        .await
        .expect("the row")
        .get(0);
    drop((store, old));
    let _ = admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .await;
    let actual = (listed, version, kept.is_some());
    let expected = (
        vec![("old".to_owned(), Some(state.version(3u64).summary()))],
        SCHEMA_VERSION,
        true,
    );
    assert_eq!(actual, expected);
}
