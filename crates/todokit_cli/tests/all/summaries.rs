//! The summaries a store keeps for listing are never wrong for longer than
//! the next listing: after writers in several processes, writers killed
//! mid-commit, and hand edits (through todokit, and behind its back), on
//! the JSON-file store and on PostgreSQL. Each check compares a long-lived
//! store's listing (whose kept summaries are warm) with the summary of
//! every list loaded whole.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use todokit::{ConversationContext, JsonFileStore, ListSummary};

#[cfg(feature = "postgres")]
use crate::support::cli::psql;

/// Conversations written, two writers each.
const CONVERSATIONS: [&str; 3] = ["alpha", "beta", "gamma"];
/// Rounds of writing, each ended by killing every writer at once.
const ROUNDS: usize = 6;

/// A shell loop of `todokit call`s on `conversation`, each list a little
/// different (statuses, the task in progress), until it is killed.
fn writer(store: &str, conversation: &str, seed: usize) -> Child {
    let script = r#"exe="$1"; store="$2"; conv="$3"; i="$4"
        while true; do
          i=$((i + 1))
          case $((i % 3)) in 0) s=completed;; 1) s=in_progress;; *) s=pending;; esac
          "$exe" --store "$store" --conversation "$conv" call TodoWrite \
            "{\"todos\":[{\"content\":\"step $i\",\"status\":\"$s\",\"activeForm\":\"doing step $i\"},{\"content\":\"last\",\"status\":\"pending\",\"activeForm\":\"ending\"}]}" \
            >/dev/null 2>&1
        done"#;
    let mut cmd = Command::new("bash");
    cmd.args(["-c", script, "writer", env!("CARGO_BIN_EXE_todokit")])
        .args([store, conversation, &seed.to_string()])
        .env_remove("TODOKIT_PROFILE")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd.spawn().expect("the writer loop starts")
}

/// Kills a writer's whole group (the shell and the `todokit` it runs, in
/// the middle of whatever it is doing).
fn kill(mut child: Child) {
    let group = format!("-{}", child.id());
    let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    let _ = child.wait();
}

type Listed = Vec<(String, Result<ListSummary, String>)>;

/// What `store` lists of the conversations named `prefix…`, and the
/// summary of each of their lists loaded whole. A commit may still land
/// after its writer was killed (a database finishes a statement whose
/// client is gone), so the store is read until two loads in a row agree,
/// with the listing taken between them: then the listing must match.
async fn listed_and_loaded(store: &dyn ConversationContext, prefix: &str) -> (Listed, Listed) {
    let mut attempt = 0;
    loop {
        let before = loaded(store, prefix).await;
        let mut listed: Listed = store
            .conversations()
            .await
            .expect("the store lists")
            .into_iter()
            .filter(|c| c.id.starts_with(prefix))
            .map(|c| (c.id, c.summary.map_err(|e| e.to_string())))
            .collect();
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        let after = loaded(store, prefix).await;
        attempt += 1;
        if before == after || attempt == 20 {
            return (listed, after);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The summary of each list named `prefix…`, each loaded whole.
async fn loaded(store: &dyn ConversationContext, prefix: &str) -> Listed {
    let mut ids: Vec<String> = store
        .conversations()
        .await
        .expect("the store lists")
        .into_iter()
        .map(|c| c.id)
        .filter(|id| id.starts_with(prefix))
        .collect();
    ids.sort();
    let mut loaded = Vec::new();
    for id in ids {
        let summary = store
            .load(&id)
            .await
            .map(|s| s.summary())
            .map_err(|e| e.to_string());
        loaded.push((id, summary));
    }
    loaded
}

/// Writers in several processes, killed together at a random moment of
/// each round; the first listing after each round must be the truth.
/// Returns the number of rounds whose listing was right, and how many
/// versions were committed in all.
async fn rounds_of_killed_writers(
    store_arg: &str,
    store: &dyn ConversationContext,
    prefix: &str,
) -> (usize, u64) {
    let mut right = 0;
    let mut random = 0x5eed_u64;
    for round in 0..ROUNDS {
        let writers: Vec<Child> = CONVERSATIONS
            .iter()
            .map(|c| format!("{prefix}{c}"))
            .enumerate()
            .flat_map(|(i, c)| {
                [
                    writer(store_arg, &c, i * 1000 + round * 100),
                    writer(store_arg, &c, i * 1000 + round * 100 + 50),
                ]
            })
            .collect();
        random = random.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let run_for = Duration::from_millis(300 + (random >> 33) % 300);
        let started = Instant::now();
        // Listing all along, so summaries are kept while files move.
        while started.elapsed() < run_for {
            let _ = store.conversations().await;
            tokio::time::sleep(Duration::from_millis(7)).await;
        }
        for child in writers {
            kill(child);
        }
        let (listed, loaded) = listed_and_loaded(store, prefix).await;
        if listed == loaded {
            right += 1;
        } else {
            assert_eq!(
                listed, loaded,
                "round {round}: the listing after the writers were killed"
            );
        }
    }
    let (_, loaded) = listed_and_loaded(store, prefix).await;
    let versions = loaded
        .iter()
        .filter_map(|(_, s)| s.as_ref().ok())
        .map(|s| s.version)
        .sum();
    (right, versions)
}

/// A hand edit through todokit: `done` on a task of `conversation`.
fn hand_edit(store_arg: &str, conversation: &str) -> bool {
    Command::new(env!("CARGO_BIN_EXE_todokit"))
        .args([
            "--store",
            store_arg,
            "--conversation",
            conversation,
            "done",
            "last",
        ])
        .env_remove("TODOKIT_PROFILE")
        .output()
        .expect("todokit runs")
        .status
        .success()
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_file_stores_listing_is_right_after_killed_writers_and_hand_edits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store_arg = dir.path().to_str().expect("UTF-8 path").to_owned();
    let store = Arc::new(JsonFileStore::new(dir.path()));
    let (right, versions) = rounds_of_killed_writers(&store_arg, store.as_ref(), "").await;

    // Let every file settle, so its summary is kept, then edit by hand.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let _ = listed_and_loaded(store.as_ref(), "").await;
    let through_todokit = hand_edit(&store_arg, "alpha");
    let (after_todokit, truth_todokit) = listed_and_loaded(store.as_ref(), "").await;

    // Behind todokit's back: the same bytes but one status, in place (same
    // file, same size), and the modification time set back as it was.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let _ = listed_and_loaded(store.as_ref(), "").await;
    let in_place = rewrite_in_place(&store.path_for("beta"), "\"pending\"", "\"blocked\"");
    let (after_in_place, truth_in_place) = listed_and_loaded(store.as_ref(), "").await;

    let actual = (
        right,
        versions > 0,
        through_todokit,
        after_todokit == truth_todokit,
        in_place,
        after_in_place == truth_in_place,
    );
    assert_eq!(
        actual,
        (ROUNDS, true, true, true, true, true),
        "{after_in_place:?} vs {truth_in_place:?}"
    );
}

/// Replaces the first `from` in the file with `to` (the same length),
/// writing into the same file and restoring its modification time.
fn rewrite_in_place(path: &Path, from: &str, to: &str) -> bool {
    assert_eq!(from.len(), to.len(), "an in-place edit keeps the size");
    let before = std::fs::metadata(path).expect("the file is there");
    let text = std::fs::read_to_string(path).expect("readable");
    if !text.contains(from) {
        return false;
    }
    let edited = text.replacen(from, to, 1);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("writable");
    std::io::Write::write_all(&mut &file, edited.as_bytes()).expect("written");
    file.set_modified(before.modified().expect("a time"))
        .expect("time set");
    let after = std::fs::metadata(path).expect("still there");
    after.len() == before.len() && after.modified().ok() == before.modified().ok()
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_databases_listing_is_right_after_killed_writers_and_hand_edits() {
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
    let store = todokit::infra::store::PostgresStore::connect(&url, 4)
        .await
        .expect("the test database is reachable");
    // Names of this run's own: the database outlives it, and other tests
    // write to it meanwhile.
    let prefix = format!("summaries-{}-", std::process::id());
    let (right, versions) = rounds_of_killed_writers(&url, &store, &prefix).await;

    let through_todokit = hand_edit(&url, &format!("{prefix}alpha"));
    let (after_todokit, truth_todokit) = listed_and_loaded(&store, &prefix).await;

    // Behind todokit's back: SQL that changes the list and nothing else.
    let sql = format!(
        "UPDATE todokit_conversations SET state = replace(state::text, '\"pending\"', '\"blocked\"')::jsonb \
         WHERE conversation = '{prefix}beta'"
    );
    let edited = psql(&url, &sql);
    let (after_sql, truth_sql) = listed_and_loaded(&store, &prefix).await;
    let blocked = after_sql
        .iter()
        .find(|(id, _)| *id == format!("{prefix}beta"))
        .and_then(|(_, s)| s.as_ref().ok())
        .map(|s| s.counts.blocked);

    let actual = (
        right,
        versions > 0,
        through_todokit,
        after_todokit == truth_todokit,
        edited,
        after_sql == truth_sql,
        blocked.is_some_and(|n| n > 0),
    );
    assert_eq!(
        actual,
        (ROUNDS, true, true, true, true, true, true),
        "{after_sql:?} vs {truth_sql:?}"
    );
}
