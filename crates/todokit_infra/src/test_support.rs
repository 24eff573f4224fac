//! Helpers shared by this crate's tests.

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
    let would = sorted(store.prune(&id("o"), before, true).await.expect("pruned"));
    let refused = (
        store.forget(&id("new"), Some(before)).await.expect("forgot"),
        store.forget(&id("never"), None).await.expect("forgot"),
    );
    let pruned = sorted(store.prune(prefix, before, false).await.expect("pruned"));
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
