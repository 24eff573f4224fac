//! `Builder::store_url`: a service on PostgreSQL wired without async code,
//! connecting (and migrating) on its first call. Needs the throwaway
//! database `make test` starts (`TODOKIT_TEST_POSTGRES_URL`).

#![cfg(feature = "postgres")]

use pretty_assertions::assert_eq;
use todokit::Todokit;

#[tokio::test]
async fn a_service_built_from_a_url_connects_on_its_first_call() {
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL")
        .expect("TODOKIT_TEST_POSTGRES_URL must name a test database: run the tests with `make test`");
    let conversation = format!("builder-{}", std::process::id());
    let service = Todokit::builder()
        .profile("claude-code")
        .and_then(|b| b.store_url(&url))
        .and_then(|b| b.build())
        .expect("a URL is enough to wire the service");
    let args = r#"{"todos":[{"content":"a","status":"in_progress","activeForm":"A"}]}"#;
    let result = service
        .call(&conversation, "TodoWrite", args)
        .await
        .map(|r| r.is_error);
    let version = service.state(&conversation).await.map(|s| s.version);
    let unreadable = Todokit::builder()
        .store_url("postgres://[not a url")
        .map(|_| ())
        .map_err(|e| e.to_string());
    let actual = (result.ok(), version.ok(), unreadable.is_err());
    assert_eq!(actual, (Some(false), Some(1), true));
}

#[tokio::test]
async fn a_nul_in_model_or_user_text_is_refused_and_postgres_keeps_the_list() {
    use todokit::app::{UserAction, UserEditError};
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL")
        .expect("TODOKIT_TEST_POSTGRES_URL must name a test database: run the tests with `make test`");
    let conversation = format!("nul-{}", std::process::id());
    let service = Todokit::builder()
        .profile("claude-code")
        .and_then(|b| b.store_url(&url))
        .and_then(|b| b.build())
        .expect("a URL is enough to wire the service");
    let first = r#"{"todos":[{"content":"Plan","status":"in_progress","activeForm":"Planning"}]}"#;
    let with_nul = r#"{"todos":[{"content":"a\u0000b","status":"pending","activeForm":"A"}]}"#;
    let stored = service
        .call(&conversation, "TodoWrite", first)
        .await
        .map(|r| r.is_error);
    let refused = service.call(&conversation, "TodoWrite", with_nul).await;
    let as_value = serde_json::from_str::<serde_json::Value>(with_nul).expect("JSON");
    let refused_value = service.call_value(&conversation, "TodoWrite", &as_value).await;
    let edit = service
        .user_edit(
            &conversation,
            UserAction::Append {
                phase: None,
                items: vec!["x\0y".to_owned()],
            },
            &todokit::infra::PiMarkdown,
        )
        .await;
    let after = service.state(&conversation).await.expect("the list reads back");
    let actual = (
        stored.ok(),
        refused
            .map(|r| {
                (
                    r.is_error,
                    r.content
                        .contains("todos[0].content: must not contain the NUL character"),
                )
            })
            .ok(),
        refused_value.map(|r| r.is_error).ok(),
        matches!(&edit, Err(UserEditError::Rejected(m)) if m.iter().any(|m| m.contains("NUL character"))),
        after.version,
        after.tasks().map(|t| t.content.clone()).collect::<Vec<_>>(),
    );
    let expected = (
        Some(false),
        Some((true, true)),
        Some(true),
        true,
        1,
        vec!["Plan".to_owned()],
    );
    assert_eq!(actual, expected);
}
