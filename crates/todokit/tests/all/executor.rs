//! The library on an executor that is not tokio: `block_on` from the
//! `futures` crates, with no tokio runtime anywhere in the process.

use pretty_assertions::assert_eq;
use todokit::Todokit;

const CALL: &str =
    r#"{"todos":[{"content":"Run tests","status":"in_progress","activeForm":"Running tests"}]}"#;

#[test]
fn block_on_runs_calls_on_the_memory_and_the_file_store() {
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
        let outcome = futures_executor::block_on(async {
            let result = service.call("c", "TodoWrite", CALL).await?;
            let state = service.state("c").await?;
            Ok::<_, todokit::ServiceError>((result.is_error, state.version, state.tasks().count()))
        });
        actual.push(outcome.map_err(|e| e.to_string()));
    }
    let expected = vec![Ok((false, 1, 1)), Ok((false, 1, 1))];
    assert_eq!(actual, expected);
}
