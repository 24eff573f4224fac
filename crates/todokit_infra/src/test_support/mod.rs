//! Helpers shared by this crate's tests, and the dialect they call the
//! service with ([`dialect`]).

pub mod dialect;

use std::path::Path;

/// insta settings that write snapshots to the workspace's `snapshots/`.
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates live two levels below the workspace root");
    settings.set_snapshot_path(workspace.join("snapshots"));
    settings.set_omit_expression(true);
    settings
}

/// What [`lifecycle_contract`] saw, step by step.
pub type LifecycleSeen = (
    Vec<String>,
    (bool, bool),
    Vec<String>,
    (bool, u64, bool),
    Vec<String>,
    (bool, bool),
    u64,
);

/// The same list, `version`, with one task per version so that a list's
/// length tells how many writes built it.
fn built(version: u64) -> todokit_domain::TodoState {
    let tasks = (0..version)
        .map(|n| todokit_domain::Todo::new(format!("step {n}")))
        .collect();
    todokit_domain::TodoState::flat(tasks).version(version)
}

/// What every store does when conversations are forgotten and pruned, on
/// conversations named under `prefix` (a prefix of the test's own: a
/// database outlives the test). Compare with [`LIFECYCLE_EXPECTED`].
pub async fn lifecycle_contract(store: &dyn todokit_app::ConversationContext, prefix: &str) -> LifecycleSeen {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;
    let id = |name: &str| format!("{prefix}{name}");
    let outside = format!("{prefix}-outside/old");
    store.save(&id("old"), 0, &built(1)).await.expect("saved");
    store.save(&id("busy"), 0, &built(1)).await.expect("saved");
    store.save(&outside, 0, &built(1)).await.expect("saved");
    tokio::time::sleep(Duration::from_millis(60)).await;
    let before = crate::clock::now_millis();
    tokio::time::sleep(Duration::from_millis(60)).await;
    store.save(&id("new"), 0, &built(1)).await.expect("saved");
    store.save(&id("busy"), 1, &built(2)).await.expect("saved");
    let sorted = |mut ids: Vec<String>| {
        ids.sort();
        ids
    };
    // Under a narrower prefix: the old list outside it is not named.
    let would = sorted(
        store
            .prune(&id("o"), before, true)
            .await
            .expect("pruned")
            .forgotten,
    );
    let refused = (
        store.forget(&id("new"), Some(before)).await.expect("forgot"),
        store.forget(&id("never"), None).await.expect("forgot"),
    );
    let pruned = sorted(
        store
            .prune(prefix, before, false)
            .await
            .expect("pruned")
            .forgotten,
    );
    let woken = Arc::new(AtomicBool::new(false));
    let wake = Arc::clone(&woken);
    let watch = store.watch(&id("busy"), Arc::new(move || wake.store(true, Ordering::SeqCst)));
    let forgot = store.forget(&id("busy"), None).await.expect("forgot");
    for _ in 0..100 {
        if woken.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(watch);
    let gone = (
        forgot,
        store.load(&id("busy")).await.expect("loaded").version,
        store.forget(&id("busy"), None).await.expect("forgot"),
    );
    let left = sorted(
        store
            .conversations_under(prefix)
            .await
            .expect("listed")
            .into_iter()
            .map(|c| c.id.replacen(prefix, "", 1))
            .collect(),
    );
    let woke = (
        woken.load(Ordering::SeqCst),
        store.forget(&outside, None).await.expect("forgot"),
    );
    store.save(&id("busy"), 0, &built(1)).await.expect("saved afresh");
    let again = store.load(&id("busy")).await.expect("loaded").version;
    let named = |ids: Vec<String>| ids.into_iter().map(|i| i.replacen(prefix, "", 1)).collect();
    (named(would), refused, named(pruned), gone, left, woke, again)
}

/// What [`lifecycle_contract`] must see on every store: the prune names
/// only what changed before its time, under its prefix; a list written
/// since is kept; a forgotten list reads as never written, wakes its
/// watch, and may be written afresh.
pub fn lifecycle_expected() -> LifecycleSeen {
    (
        vec!["old".to_owned()],
        (false, false),
        vec!["-outside/old".to_owned(), "old".to_owned()],
        (true, 0, false),
        vec!["new".to_owned()],
        (true, false),
        1,
    )
}

/// Writers adding one task per commit to one conversation while another
/// task forgets it again and again: afterwards the stored list is whole
/// (one task per version, so no commit was lost since the last forget,
/// and none was half written). The tasks and version of what is stored.
pub async fn racing_forget(
    store: std::sync::Arc<dyn todokit_app::ConversationContext>,
    conversation: &str,
) -> (usize, u64) {
    use std::time::Duration;
    let mut writers = Vec::new();
    for _ in 0..4 {
        let (store, conversation) = (std::sync::Arc::clone(&store), conversation.to_owned());
        writers.push(tokio::spawn(async move {
            for _ in 0..25 {
                loop {
                    let found = store.load(&conversation).await.expect("loaded");
                    assert_eq!(
                        found.phases.iter().map(|p| p.tasks.len()).sum::<usize>() as u64,
                        found.version,
                        "a whole list"
                    );
                    match store
                        .save(&conversation, found.version, &built(found.version + 1))
                        .await
                    {
                        Ok(()) => break,
                        Err(todokit_app::StoreError::Conflict { .. }) => tokio::task::yield_now().await,
                        Err(other) => panic!("a write failed: {other}"),
                    }
                }
            }
        }));
    }
    let forgetter = {
        let (store, conversation) = (std::sync::Arc::clone(&store), conversation.to_owned());
        tokio::spawn(async move {
            for _ in 0..10 {
                store.forget(&conversation, None).await.expect("forgot");
                tokio::time::sleep(Duration::from_millis(3)).await;
            }
        })
    };
    for writer in writers {
        writer.await.expect("a writer ran to its end");
    }
    forgetter.await.expect("the forgetter ran to its end");
    let last = store.load(conversation).await.expect("loaded");
    (last.phases.iter().map(|p| p.tasks.len()).sum(), last.version)
}

/// What [`record_contract`] saw.
pub type RecordSeen = ((bool, bool), (bool, u64), (bool, bool), (Vec<String>, bool));

/// A turn record beside its list on every store: written only while the
/// list is at the version it was made from, gone with its list under
/// `forget` and `prune`, and not named by a prune; one whose list is gone
/// goes when it is idle itself.
pub async fn record_contract(store: &dyn todokit_app::ConversationContext, prefix: &str) -> RecordSeen {
    use std::sync::Arc;
    use std::time::Duration;
    use todokit_domain::turn::turn_key;
    let id = |name: &str| format!("{prefix}{name}");
    let record = || Arc::new(todokit_domain::TodoState::new().version(1u64));
    let conflict = |result: Result<(), todokit_app::StoreError>| {
        matches!(result, Err(todokit_app::StoreError::Conflict { .. }))
    };
    store.save(&id("a"), 0, &built(1)).await.expect("saved");
    let stale = conflict(store.save_record(&id("a"), 2, 0, record()).await);
    let written = store.save_record(&id("a"), 1, 0, record()).await.is_ok();
    let forgot = store.forget(&id("a"), None).await.expect("forgot");
    let after = (
        conflict(store.save_record(&id("a"), 1, 0, record()).await),
        store.load(&turn_key(&id("a"))).await.expect("loaded").version,
    );
    // A record with no list, and one beside an idle list.
    store
        .save_record(&id("alone"), 0, 0, record())
        .await
        .expect("saved");
    store.save(&id("idle"), 0, &built(1)).await.expect("saved");
    store
        .save_record(&id("idle"), 1, 0, record())
        .await
        .expect("saved");
    tokio::time::sleep(Duration::from_millis(60)).await;
    let before = crate::clock::now_millis();
    let pruned = store.prune(prefix, before, false).await.expect("pruned");
    let left = (
        store.load(&turn_key(&id("alone"))).await.expect("loaded").version,
        store.load(&turn_key(&id("idle"))).await.expect("loaded").version,
    );
    let mut names = pruned
        .forgotten
        .iter()
        .map(|i| i.replacen(prefix, "", 1))
        .collect::<Vec<_>>();
    names.sort();
    (
        (stale, written),
        (forgot, after.1),
        (after.0, left == (0, 0)),
        (names, pruned.failed.is_empty()),
    )
}

/// What [`record_contract`] must see on every store.
pub fn record_expected() -> RecordSeen {
    (
        (true, true),
        (true, 0),
        (true, true),
        (vec!["idle".to_owned()], true),
    )
}

/// A turn hook writing a record made from the list while another task
/// forgets the conversation, `rounds` times: afterwards no record made
/// from the forgotten list is stored. The rounds in which one was.
pub async fn racing_record(
    store: std::sync::Arc<dyn todokit_app::ConversationContext>,
    conversation: &str,
    rounds: usize,
) -> usize {
    use std::sync::Arc;
    use todokit_domain::turn::turn_key;
    let mut outlived = 0;
    for _ in 0..rounds {
        store.save(conversation, 0, &built(1)).await.expect("saved");
        let hook = {
            let (store, conversation) = (Arc::clone(&store), conversation.to_owned());
            tokio::spawn(async move {
                // A hook that read the list, then retries its record.
                let list = store.load(&conversation).await.expect("loaded").version;
                for _ in 0..50 {
                    let stored = store.load(&turn_key(&conversation)).await.expect("loaded");
                    let made = Arc::new(built(list).version(stored.version + 1));
                    match store.save_record(&conversation, list, stored.version, made).await {
                        Ok(()) => {}
                        Err(todokit_app::StoreError::Conflict { .. }) => return,
                        Err(other) => panic!("a record write failed: {other}"),
                    }
                    tokio::task::yield_now().await;
                }
            })
        };
        tokio::task::yield_now().await;
        store.forget(conversation, None).await.expect("forgot");
        hook.await.expect("the hook ran");
        let list = store.load(conversation).await.expect("loaded").version;
        let record = store.load(&turn_key(conversation)).await.expect("loaded");
        // A record made from the list carries its one task.
        if list == 0 && !record.phases.is_empty() {
            outlived += 1;
        }
        store.forget(conversation, None).await.expect("forgot");
    }
    outlived
}
