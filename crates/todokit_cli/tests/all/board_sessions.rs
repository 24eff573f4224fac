//! The board's sign-in sessions, as a web service keeps them: a cookie
//! that is `Secure` and `__Host-` over TLS, lasts `--session-ttl`, ends at
//! sign-out, and ends with its token, so a token added back to the file
//! does not bring its old sessions back.

use std::time::Duration;

use pretty_assertions::assert_eq;

use crate::support::serve::{Reply, Server, cookie_of, poll_until, request, tenant_tokens};

/// The `Set-Cookie` attributes after the value, in order.
fn attributes(reply: &Reply) -> Vec<String> {
    reply
        .header("set-cookie")
        .map(|set| set.split(';').skip(1).map(|a| a.trim().to_owned()).collect())
        .unwrap_or_default()
}

/// `list` as owned strings.
fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| (*w).to_owned()).collect()
}

/// The status of `GET /api/conversations` with `cookie`.
fn with(server: &Server, cookie: &str) -> u16 {
    request(
        &server.address,
        "GET",
        "/api/conversations",
        &[("Cookie", cookie)],
        None,
    )
    .status
}

/// Signs in at `/login` with `token`, with `extra` headers.
fn sign_in(server: &Server, token: &str, extra: &[(&str, &str)]) -> Reply {
    let mut headers = vec![("Content-Type", "application/x-www-form-urlencoded")];
    headers.extend_from_slice(extra);
    request(
        &server.address,
        "POST",
        "/login",
        &headers,
        Some(&format!("token={token}")),
    )
}

#[test]
fn a_sign_in_is_a_session_that_expires_signs_out_and_is_secure_over_tls() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(
        &dir.path().join("store"),
        &["--token", "t0ken", "--session-ttl", "2s"],
    );
    let plain = sign_in(&server, "t0ken", &[]);
    let tls = sign_in(&server, "t0ken", &[("X-Forwarded-Proto", "https")]);
    let (first, second) = (cookie_of(&plain), cookie_of(&tls));
    let page = request(&server.address, "GET", "/", &[("Cookie", &first)], None);
    let signed_in = (with(&server, &first), with(&server, &second));
    let out = request(&server.address, "POST", "/logout", &[("Cookie", &first)], None);
    let after_out = (with(&server, &first), with(&server, &second));
    let foreign = request(
        &server.address,
        "POST",
        "/logout",
        &[("Cookie", &second), ("Origin", "http://evil.example")],
        None,
    );
    // The second session lasts its two seconds, then ends by itself.
    let expired = poll_until(|| with(&server, &second), |status| *status == 401);
    let actual = (
        (attributes(&plain), first.starts_with("todokit_session=")),
        (attributes(&tls), second.starts_with("__Host-todokit_session=")),
        page.body.contains(r#"<form method="post" action="/logout""#),
        signed_in,
        (
            out.status,
            out.header("location").map(str::to_owned),
            attributes(&out),
        ),
        after_out,
        foreign.status,
        expired,
    );
    let expected = (
        (
            words(&["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=2"]),
            true,
        ),
        (
            words(&["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=2", "Secure"]),
            true,
        ),
        true,
        (200, 200),
        (
            303,
            Some("/login".to_owned()),
            words(&["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=0"]),
        ),
        (401, 200),
        403,
        401,
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_token_removed_and_added_back_does_not_bring_its_old_sessions_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tokens = tenant_tokens(dir.path());
    let tokens_arg = tokens.to_str().unwrap_or_default().to_owned();
    let server = Server::start(&dir.path().join("store"), &["--token-file", &tokens_arg]);
    let old = cookie_of(&sign_in(&server, "t-acme", &[]));
    let before = with(&server, &old);
    let full = std::fs::read_to_string(&tokens).expect("token file");
    std::fs::write(&tokens, "t-initech initech\n").expect("token file");
    server.hang_up();
    let removed = poll_until(|| with(&server, &old), |status| *status == 401);
    std::fs::write(&tokens, &full).expect("token file");
    server.hang_up();
    // Back in the file: a new sign-in works, and the old cookie does not.
    let fresh = poll_until(
        || {
            std::thread::sleep(Duration::from_millis(20));
            cookie_of(&sign_in(&server, "t-acme", &[]))
        },
        |cookie| !cookie.is_empty(),
    );
    let actual = (before, removed, with(&server, &fresh), with(&server, &old));
    assert_eq!(actual, (200, 401, 200, 401));
}
