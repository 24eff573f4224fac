//! `todokit profiles --check-upstream` against registries of the test's
//! own on loopback (npm's and PyPI's answers, as they shape them): a
//! package at the version read is current, a newer one is named, a
//! registry that does not know it is said so, and a profile not read from
//! a package is told apart.

use std::collections::HashMap;

use axum::extract::Path as UrlPath;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{snapshot_settings, todokit};

/// A registry answering for `versions` (name → newest), npm's and PyPI's
/// routes both; its address.
fn registry(runtime: &tokio::runtime::Runtime, versions: HashMap<&'static str, &'static str>) -> String {
    let app = axum::Router::new()
        .route(
            "/pypi/{name}/json",
            get(newest(versions.clone(), |_, v| json!({"info": {"version": v}}))),
        )
        .route(
            "/{name}/latest",
            get(newest(versions, |name, v| json!({"name": name, "version": v}))),
        );
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a port on loopback");
    let url = format!("http://{}", listener.local_addr().expect("its address"));
    runtime.spawn(async move { axum::serve(listener, app).await });
    url
}

/// A route's handler: the package's newest version in the registry's
/// shape (`body` of its name and version), or its 404.
fn newest(
    versions: HashMap<&'static str, &'static str>,
    body: fn(&str, &str) -> Value,
) -> impl Fn(UrlPath<String>) -> std::future::Ready<Response> + Clone {
    move |UrlPath(name): UrlPath<String>| {
        std::future::ready(match versions.get(name.as_str()) {
            Some(version) => axum::Json(body(&name, version)).into_response(),
            None => (StatusCode::NOT_FOUND, "{\"error\":\"Not found\"}").into_response(),
        })
    }
}

#[test]
fn each_profiles_package_is_compared_with_the_registrys_newest() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let url = registry(
        &runtime,
        HashMap::from([
            // axum hands the route the name with npm's escaped `/` decoded.
            ("@anthropic-ai/claude-code", "2.1.332"),
            ("opencode-ai", "1.20.0"),
            ("mistral-vibe", "3.0.3"),
            ("kimi-cli", "1.60.0"),
        ]),
    );
    let store = tempfile::tempdir().expect("a folder");
    let run = |format: &str| {
        todokit(store.path())
            .args(["profiles", "--format", format, "--check-upstream"])
            .env("TODOKIT_NPM_REGISTRY", &url)
            .env("TODOKIT_PYPI_INDEX", &url)
            .output()
            .expect("todokit runs")
    };
    // What a person reads: each line's check, then its verdict.
    let text = run("text");
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    snapshot_settings()
        .bind(|| insta::assert_snapshot!("profiles_check_upstream", String::from_utf8_lossy(&text.stdout)));
    let out = run("json");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let verdict = |name: &str| -> String {
        listed
            .as_array()
            .and_then(|all| all.iter().find(|p| p["name"] == name))
            .and_then(|p| p["newest_upstream"].as_str())
            .unwrap_or("(none)")
            .to_owned()
    };
    let actual: Vec<(&str, String)> = ["claude-tasks", "opencode", "vibe", "kimi-cli", "codex", "cursor"]
        .into_iter()
        .map(|name| (name, verdict(name)))
        .collect();
    let expected = vec![
        ("claude-tasks", "current".to_owned()),
        ("opencode", "newer upstream: 1.20.0".to_owned()),
        ("vibe", "current".to_owned()),
        ("kimi-cli", "newer upstream: 1.60.0".to_owned()),
        ("codex", "could not ask npm: http status: 404".to_owned()),
        ("cursor", "not read from a package".to_owned()),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn the_markdown_table_takes_no_upstream_check() {
    let store = tempfile::tempdir().expect("a folder");
    let out = todokit(store.path())
        .args(["profiles", "--format", "markdown", "--check-upstream"])
        .output()
        .expect("todokit runs");
    let actual = (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    let expected = (
        Some(2),
        "todokit: --check-upstream answers in text or json; the markdown table is docs/dialects.md's\n"
            .to_owned(),
    );
    assert_eq!(actual, expected);
}
