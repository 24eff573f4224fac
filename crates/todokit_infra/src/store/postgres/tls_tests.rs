//! The store on a cluster that takes TLS connections only
//! (`TODOKIT_TEST_POSTGRES_TLS_URL`: `sslmode=verify-full` against the
//! throwaway CA `scripts/with-postgres.sh` made), and a prefix listing.

use pretty_assertions::assert_eq;
use todokit_domain::Todo;

use super::tests::url;
use super::*;

fn tls_url() -> String {
    std::env::var("TODOKIT_TEST_POSTGRES_TLS_URL").expect(
        "TODOKIT_TEST_POSTGRES_TLS_URL must name a TLS-only test database: run the tests with `make test`",
    )
}

fn list(content: &str, version: u64) -> TodoState {
    let mut state = TodoState::flat(vec![Todo::new(content)]);
    state.version = version;
    state
}

/// `url` with its `sslmode` replaced (and everything after it kept).
fn with_mode(url: &str, mode: &str) -> String {
    url.replace("sslmode=verify-full", &format!("sslmode={mode}"))
}

#[tokio::test]
async fn a_tls_only_database_is_reached_with_its_certificate_checked() {
    let url = tls_url();
    let store = PostgresStore::connect(&url, 2)
        .await
        .expect("the TLS database is reachable");
    let conversation = format!("tls-{}", std::process::id());
    store
        .save(&conversation, 0, &list("Over TLS", 1))
        .await
        .expect("a save over TLS");
    let loaded = store.load(&conversation).await.expect("a load over TLS");

    // Without TLS the server refuses; with the system's roots (which do not
    // hold the throwaway CA) the certificate is refused; verify-ca takes the
    // CA whatever the host is called.
    let plain = PostgresStore::connect(&with_mode(&url, "disable"), 1)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string());
    let untrusted = url.split("&sslrootcert=").next().unwrap_or_default().to_owned();
    let unknown_ca = PostgresStore::connect(&untrusted, 1)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string());
    let by_ip = with_mode(&url, "verify-ca").replace("@localhost:", "@127.0.0.1:");
    let chain_only = PostgresStore::connect(&by_ip, 1).await.map(|_| ());
    let by_ip_full = url.replace("@localhost:", "@127.0.0.1:");
    let full_by_ip = PostgresStore::connect(&by_ip_full, 1).await.map(|_| ());
    assert_eq!(loaded.version, 1);
    assert!(
        plain.as_ref().is_err_and(|e| e.contains("no encryption")),
        "{plain:?}"
    );
    assert!(
        unknown_ca
            .as_ref()
            .is_err_and(|e| e.contains("certificate") || e.contains("root certificates")),
        "{unknown_ca:?}"
    );
    assert!(chain_only.is_ok(), "{chain_only:?}");
    // The certificate names 127.0.0.1 too.
    assert!(full_by_ip.is_ok(), "{full_by_ip:?}");
}

/// `verify-full` refuses a certificate that does not name the host asked
/// for (reached by its address, `hostaddr`), where `verify-ca` takes it;
/// `verify-ca` refuses a chain to no trusted root.
#[tokio::test]
async fn verify_full_checks_the_name_and_verify_ca_the_chain() {
    let url = tls_url();
    let renamed = format!(
        "{}?hostaddr=127.0.0.1&{}",
        url.split('?')
            .next()
            .unwrap_or_default()
            .replace("@localhost:", "@wrong-name.test:"),
        url.split_once('?').map(|(_, query)| query).unwrap_or_default()
    );
    let attempt = |url: String| async move {
        PostgresStore::connect(&url, 1)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let wrong_name = attempt(renamed.clone()).await;
    let wrong_name_chain_only = attempt(with_mode(&renamed, "verify-ca")).await;
    let untrusted = url.split("&sslrootcert=").next().unwrap_or_default().to_owned();
    let untrusted_chain = attempt(with_mode(&untrusted, "verify-ca")).await;
    assert!(
        wrong_name.as_ref().is_err_and(|e| e.contains("certificate")),
        "{wrong_name:?}"
    );
    assert!(wrong_name_chain_only.is_ok(), "{wrong_name_chain_only:?}");
    assert!(
        untrusted_chain
            .as_ref()
            .is_err_and(|e| e.contains("certificate") || e.contains("root certificates")),
        "{untrusted_chain:?}"
    );
}

#[tokio::test]
async fn conversations_under_a_prefix_are_a_key_range() {
    let store = PostgresStore::connect(&url(), 2)
        .await
        .expect("the test database is reachable");
    let tag = format!("range{}", std::process::id());
    for id in [
        format!("{tag}/a"),
        format!("{tag}/b"),
        format!("{tag}0"),
        format!("{tag}.x"),
        format!("{tag}/%_"),
    ] {
        store.save(&id, 0, &list(&id, 1)).await.expect("a save");
    }
    let mut actual: Vec<String> = store
        .conversations_under(&format!("{tag}/"))
        .await
        .expect("a listing")
        .into_iter()
        .map(|c| c.id)
        .collect();
    actual.sort();
    assert_eq!(
        actual,
        vec![format!("{tag}/%_"), format!("{tag}/a"), format!("{tag}/b")]
    );
}
