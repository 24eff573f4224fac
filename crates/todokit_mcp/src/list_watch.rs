//! Which conversations a store holds, followed once per store for every
//! session of the process that asked to hear of new ones: one store watch
//! and one listing per burst of commits, however many sessions listen (a
//! remote server may hold thousands). The watch ends when the last session
//! that follows it goes.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use todokit::TodoWriteService;
use tokio::sync::watch;
use tokio::task::AbortHandle;

/// How long the watch waits after a wake before it lists, so a burst of
/// commits costs one listing.
const SETTLE: Duration = Duration::from_millis(100);

/// How often it lists when the store cannot say that a conversation
/// appeared.
const LIST_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// The conversation ids of one store, as last listed.
pub(super) struct ListWatch {
    ids: watch::Receiver<Arc<BTreeSet<String>>>,
    task: AbortHandle,
}

impl Drop for ListWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ListWatch {
    /// The ids from now on: changed whenever a listing differs.
    pub(super) fn ids(&self) -> watch::Receiver<Arc<BTreeSet<String>>> {
        self.ids.clone()
    }
}

/// The running watches, by the address of the store they follow.
static WATCHES: Mutex<Option<HashMap<usize, Weak<ListWatch>>>> = Mutex::new(None);

/// The watch of `service`'s store, started if none runs; `known` is what
/// the first listener already knows (the first value until a listing).
pub(super) fn list_watch(service: &TodoWriteService, known: &BTreeSet<String>) -> Arc<ListWatch> {
    let key = Arc::as_ptr(service.store()).cast::<()>() as usize;
    let mut watches = WATCHES.lock().unwrap_or_else(PoisonError::into_inner);
    let watches = watches.get_or_insert_with(HashMap::new);
    watches.retain(|_, watch| watch.strong_count() > 0);
    if let Some(running) = watches.get(&key).and_then(Weak::upgrade) {
        return running;
    }
    let (publish, ids) = watch::channel(Arc::new(known.clone()));
    let task = tokio::spawn(follow(service.clone(), publish)).abort_handle();
    let started = Arc::new(ListWatch { ids, task });
    watches.insert(key, Arc::downgrade(&started));
    started
}

/// Lists the store after each wake (or on a timer) and publishes the ids
/// when they changed.
async fn follow(service: TodoWriteService, publish: watch::Sender<Arc<BTreeSet<String>>>) {
    let woken = Arc::new(tokio::sync::Notify::new());
    let wake = woken.clone();
    // `notify_one` keeps a wake that comes while the loop is busy, so none
    // is lost.
    let watch = service.watch_conversations(Arc::new(move || wake.notify_one()));
    // The first listing right after the watch is in place: what was
    // committed before it (since the first listener listed) is seen too.
    let mut first = true;
    loop {
        if first {
            first = false;
        } else {
            if watch.is_some() {
                woken.notified().await;
            } else {
                tokio::time::sleep(LIST_POLL_INTERVAL).await;
            }
            tokio::time::sleep(SETTLE).await;
        }
        let Ok(listed) = service.conversations().await else {
            continue;
        };
        let now: BTreeSet<String> = listed.into_iter().map(|summary| summary.id).collect();
        publish.send_if_modified(|ids| {
            let changed = **ids != now;
            if changed {
                *ids = Arc::new(now);
            }
            changed
        });
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    fn memory_service() -> TodoWriteService {
        todokit::Todokit::builder()
            .profile("claude-code")
            .and_then(|builder| builder.memory_store().build())
            .expect("a memory service")
    }

    #[tokio::test]
    async fn sessions_of_one_store_share_one_watch_that_ends_with_the_last() {
        let service = memory_service();
        let other = memory_service();
        let first = list_watch(&service, &BTreeSet::new());
        let second = list_watch(&service.clone(), &BTreeSet::new());
        let elsewhere = list_watch(&other, &BTreeSet::new());
        let mut ids = second.ids();
        let todos = r#"{"todos":[{"content":"Plan","status":"pending","activeForm":"Planning"}]}"#;
        service.call("new-one", "TodoWrite", todos).await.expect("a call");
        let heard = tokio::time::timeout(Duration::from_secs(5), ids.changed()).await;
        let now = ids.borrow().clone();
        let shared = (Arc::ptr_eq(&first, &second), Arc::ptr_eq(&first, &elsewhere));
        let old = first.task.clone();
        drop((first, second));
        // The last session gone, the old watch's task ends ...
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        let ended = old.is_finished();
        // ... and the next session gets a new one, which hears the store.
        let again = list_watch(&service, &now);
        let mut again_ids = again.ids();
        service
            .call("another-one", "TodoWrite", todos)
            .await
            .expect("a call");
        let heard_again = tokio::time::timeout(Duration::from_secs(5), again_ids.changed()).await;
        let later = again_ids.borrow().clone();
        assert_eq!(
            (
                shared,
                heard.is_ok(),
                now.iter().cloned().collect::<Vec<_>>(),
                ended,
                again.task.id() != old.id(),
                heard_again.is_ok(),
                later.iter().cloned().collect::<Vec<_>>(),
            ),
            (
                (true, false),
                true,
                vec!["new-one".to_owned()],
                true,
                true,
                true,
                vec!["another-one".to_owned(), "new-one".to_owned()],
            )
        );
    }
}
