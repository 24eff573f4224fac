//! What forgetting leaves behind on the folder store: nothing of a turn
//! record, of a killed writer's temporary files, or of a prune that met a
//! conversation it could not remove.

use std::fs;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use pretty_assertions::assert_eq;
use todokit_app::{ConversationContext, StoreError};
use todokit_domain::TodoState;
use todokit_domain::turn::turn_key;

use super::JsonFileStore;
use crate::test_support::{racing_record, record_contract, record_expected};

/// A temporary file as a writer killed mid-write leaves it, `age` old.
fn leftover(store: &JsonFileStore, conversation: &str, tag: &str, age: Duration) -> String {
    let name = format!("{}{tag}.tmp", JsonFileStore::temp_prefix(conversation));
    let path = store.root().join(&name);
    fs::write(&path, b"{\"format\":1,\"conversation\":\"half a list").expect("written");
    let file = fs::File::options().write(true).open(&path).expect("opened");
    file.set_modified(SystemTime::now() - age).expect("dated");
    name
}

/// The ids of the conversations `store` lists.
async fn listed(store: &JsonFileStore) -> Vec<String> {
    let conversations = store.conversations().await.expect("listed");
    conversations.into_iter().map(|c| c.id).collect()
}

fn exists(store: &JsonFileStore, name: &str) -> bool {
    store.root().join(name).exists()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_record_follows_its_list_and_no_hook_brings_one_back_after_a_forget() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = JsonFileStore::new(dir.path().join("store"));
    let seen = record_contract(&store, "r").await;
    let shared: Arc<dyn ConversationContext> = Arc::new(store.clone());
    let outlived = racing_record(shared, "raced", 40).await;
    let actual = (seen, outlived);
    let expected = (record_expected(), 0);
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn forget_prune_and_the_first_listing_leave_no_killed_writers_temporary_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = JsonFileStore::new(dir.path().join("store"));
    for id in ["gone", "idle", "live"] {
        store
            .save(id, 0, &TodoState::new().version(1u64))
            .await
            .expect("saved");
    }
    let fresh = Duration::from_secs(1);
    let old = super::ABANDONED_AFTER + Duration::from_secs(60);
    let of_gone = leftover(&store, "gone", "a1", fresh);
    let of_record = leftover(&store, &turn_key("gone"), "a2", fresh);
    let of_idle = leftover(&store, "idle", "b1", fresh);
    let of_live = leftover(&store, "live", "c1", fresh);
    let abandoned = leftover(&store, "live", "c2", old);
    let forgot = store.forget("gone", None).await.expect("forgot");
    let after_forget = (
        exists(&store, &of_gone),
        exists(&store, &of_record),
        exists(&store, &of_live),
    );
    let later = crate::clock::now_millis() + 1;
    let pruned = store.prune("idle", later, false).await.expect("pruned").forgotten;
    let after_prune = (
        exists(&store, &of_idle),
        exists(&store, &of_live),
        exists(&store, &abandoned),
    );
    // A store's first listing sweeps a folder no process swept lately.
    let again = leftover(&store, "live", "c3", old);
    fs::remove_file(store.root().join(".todokit-swept")).expect("stamp removed");
    let reopened = JsonFileStore::new(store.root());
    reopened.conversations().await.expect("listed");
    let actual = (forgot, after_forget, pruned, after_prune, exists(&store, &again));
    let expected = (
        true,
        (false, false, true),
        vec!["idle".to_owned()],
        (false, true, false),
        false,
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_prune_goes_on_past_a_conversation_it_cannot_remove_and_says_which() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = JsonFileStore::new(dir.path().join("store"));
    for id in ["a", "bad", "c", "d"] {
        store
            .save(id, 0, &TodoState::new().version(1u64))
            .await
            .expect("saved");
        let record = Arc::new(TodoState::new().version(1u64));
        store.save_record(id, 1, 0, record).await.expect("saved");
    }
    // A lock path that is a folder: this conversation cannot be locked.
    fs::remove_file(store.root().join("c-bad.lock")).expect("lock removed");
    fs::create_dir(store.root().join("c-bad.lock")).expect("folder made");
    let later = crate::clock::now_millis() + 1;
    let pruned = store.prune("", later, false).await.expect("pruned");
    let failed: Vec<(String, bool)> = pruned
        .failed
        .iter()
        .map(|(id, error)| (id.clone(), matches!(error, StoreError::Io { .. })))
        .collect();
    let mut left = listed(&store).await;
    left.sort();
    let actual = (pruned.forgotten, failed, left);
    let expected = (
        vec!["a".to_owned(), "c".to_owned(), "d".to_owned()],
        vec![("bad".to_owned(), true)],
        vec!["bad".to_owned(), turn_key("bad")],
    );
    let mut actual = actual;
    actual.0.sort();
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_store_deeper_than_260_characters_writes_lists_and_forgets() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Past Windows' 260-character limit on an ordinary path.
    let root = (0..6).fold(dir.path().to_owned(), |p, i| {
        p.join(format!("{i}{}", "d".repeat(50)))
    });
    let store = JsonFileStore::new(&root);
    let list = TodoState::flat(vec![todokit_domain::Todo::new("Deep")]).version(1_u64);
    store.save("deep", 0, &list).await.expect("saved");
    let listed = listed(&store).await;
    let loaded = store.load("deep").await.expect("loaded").tasks().count();
    let forgot = store.forget("deep", None).await.expect("forgot");
    // Only the folder's sweep stamp stays.
    let left: Vec<String> = fs::read_dir(&root)
        .expect("read")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".todokit-swept")
        .collect();
    let actual = (root.as_os_str().len() > 260, listed, loaded, forgot, left);
    assert_eq!(
        actual,
        (true, vec!["deep".to_owned()], 1, true, Vec::<String>::new())
    );
}
