//! Listing a store's conversations through the service, newest change
//! first, with their progress; on the memory and the JSON-file store.

use pretty_assertions::assert_eq;
use todokit::{ConversationContext, JsonFileStore, TodoWriteService, Todokit};

fn write(content: &str, status: &str) -> String {
    format!(
        r#"{{"todos":[{{"content":"{content}","status":"{status}","activeForm":"Doing {content}"}},{{"content":"next","status":"pending","activeForm":"Doing next"}}]}}"#
    )
}

async fn listed(service: &TodoWriteService) -> Vec<(String, u64, usize, usize, Option<String>)> {
    service
        .conversations()
        .await
        .expect("the store lists its conversations")
        .into_iter()
        .map(|c| (c.id, c.version, c.counts.open(), c.counts.total(), c.in_progress))
        .collect()
}

#[tokio::test]
async fn conversations_come_newest_change_first_with_their_progress_on_both_stores() {
    let dir = tempfile::tempdir().unwrap();
    let mut actual = Vec::new();
    for builder in [
        Todokit::builder().profile("claude-code").unwrap().memory_store(),
        Todokit::builder()
            .profile("claude-code")
            .unwrap()
            .store_dir(dir.path()),
    ] {
        let service = builder.build().unwrap();
        for (conversation, content, status) in [
            ("older", "a", "in_progress"),
            ("Ünïcode space", "b", "completed"),
            ("older", "c", "in_progress"),
        ] {
            // Apart in time, so the order is the order of the writes.
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            service
                .call(conversation, "TodoWrite", &write(content, status))
                .await
                .unwrap();
        }
        actual.push(listed(&service).await);
    }
    let expected_one = vec![
        ("older".to_owned(), 2, 2, 2, Some("Doing c".to_owned())),
        ("Ünïcode space".to_owned(), 1, 1, 2, None),
    ];
    assert_eq!(actual, vec![expected_one.clone(), expected_one]);
}

#[tokio::test]
async fn a_file_that_cannot_be_read_is_listed_with_its_problem() {
    let dir = tempfile::tempdir().unwrap();
    let store = JsonFileStore::new(dir.path());
    std::fs::write(store.path_for("broken"), b"{not json").unwrap();
    let listed = store.conversations().await.unwrap();
    let actual: Vec<(String, bool)> = listed.into_iter().map(|c| (c.id, c.summary.is_err())).collect();
    // Listed under the conversation its file name stands for.
    assert_eq!(actual, vec![("broken".to_owned(), true)]);
}
