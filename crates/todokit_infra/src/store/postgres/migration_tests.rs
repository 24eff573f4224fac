//! The schema migration against a real server when it fails halfway: it
//! leaves nothing of itself behind, no pooled connection stays in an
//! aborted transaction, and the next call tries it again.

use super::*;
use pretty_assertions::assert_eq;

#[tokio::test]
async fn a_migration_that_fails_halfway_is_rolled_back_and_tried_again() {
    let name = format!("todokit_halfway_{}", std::process::id());
    let (admin, own_url, own) = super::tests::own_database(&name).await;
    // Schema 1, and a trigger under the name the move to schema 2 creates:
    // that step fails after the ones before it (a new column, an index, a
    // function) ran.
    own.batch_execute(super::tests::SCHEMA_1).await.expect("schema 1");
    own.batch_execute(
        "CREATE FUNCTION in_the_way() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
         CREATE TRIGGER todokit_forget_stale_summary BEFORE UPDATE ON todokit_conversations
             FOR EACH ROW EXECUTE FUNCTION in_the_way();",
    )
    .await
    .expect("schema 1 with a trigger in the way");
    // One connection: a connection left in an aborted transaction would be
    // the one the next call gets.
    let store = PostgresStore::lazy(&own_url, 1).expect("a URL");
    let failed = store.load("c").await.map(|_| ());
    // The server's SQLSTATE comes with the error: 42710, duplicate_object.
    let code = match &failed {
        Err(StoreError::Database { code, .. }) => code.clone(),
        _ => None,
    };
    let failed = failed.map_err(|e| e.to_string());
    let column_after_failure: i64 = own
        .query_one(
            "SELECT count(*) FROM information_schema.columns
             WHERE table_name = 'todokit_conversations' AND column_name = 'summary'",
            &[],
        )
        .await
        .expect("the catalog")
        .get(0);
    own.batch_execute("DROP TRIGGER todokit_forget_stale_summary ON todokit_conversations")
        .await
        .expect("the trigger goes");
    let retried = store.load("c").await.map(|s| s.version);
    let version: i32 = own
        .query_one("SELECT version FROM todokit_schema", &[])
        .await
        .expect("a version")
        .get(0);
    drop((store, own));
    let _ = admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .await;
    let actual = (
        failed
            .as_ref()
            .err()
            .is_some_and(|e| e.contains("could not migrate")),
        code,
        column_after_failure,
        retried.ok(),
        version,
    );
    let expected = (true, Some("42710".to_owned()), 0, Some(0), SCHEMA_VERSION);
    assert_eq!(actual, expected, "{failed:?}");
}
