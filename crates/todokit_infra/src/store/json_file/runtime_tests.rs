//! The file store under nested runtimes, as language bindings run it: a
//! multi-thread runtime's handle entered inside a current-thread runtime.

use std::sync::Arc;

use pretty_assertions::assert_eq;
use todokit_app::ConversationContext;
use todokit_domain::{Todo, TodoState};

use super::JsonFileStore;

#[test]
fn a_multi_thread_handle_entered_inside_a_current_thread_runtime_does_not_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Arc::new(JsonFileStore::new(dir.path()));
    let outer = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a multi-thread runtime");
    let inner = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime");
    let handle = outer.handle().clone();
    let stored = inner.block_on(async {
        // What a binding's callback does: the host's runtime entered here.
        let _entered = handle.enter();
        let state = TodoState::flat(vec![Todo::new("a")]).version(1u64);
        store.save("c", 0, &state).await.expect("saved");
        store.load("c").await.map(|s| s.version)
    });
    assert_eq!(stored.ok(), Some(1));
}
