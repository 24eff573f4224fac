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
