//! `subscriptions/listen` announces a commit that lands between the
//! request's arrival and the listen's start (after rmcp acknowledged it),
//! over stdio and over HTTP: the lists it follows are read before rmcp
//! sees the request.

use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use todokit_mcp::{TodoMcpServer, conversation_uri};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use crate::support::{CommitAsAFeedStarts, connect, free_port, listen_request, service_over};

/// Bounded only so that a server that never announces fails the test
/// instead of hanging it; the announcement comes at once.
const NEVER: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_stdio_a_commit_between_a_listens_arrival_and_its_start_is_announced() {
    let service = service_over(CommitAsAFeedStarts::default());
    let uri = conversation_uri("c");
    let (mut to_server, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    let session = tokio::spawn(todokit_mcp::serve(
        TodoMcpServer::new(service, "c"),
        server_input,
        server_output,
    ));
    let listen = listen_request(&uri);
    to_server
        .write_all(format!("{listen}\n").as_bytes())
        .await
        .expect("the session reads");
    let mut replies = BufReader::new(from_server).lines();
    let mut methods = Vec::new();
    let announced = tokio::time::timeout(NEVER, async {
        while let Ok(Some(line)) = replies.next_line().await {
            let reply: Value = serde_json::from_str(&line).unwrap_or_default();
            methods.push(reply["method"].as_str().unwrap_or_default().to_owned());
            if reply["method"] == "notifications/resources/updated" {
                return Some(reply["params"]["uri"].clone());
            }
        }
        None
    })
    .await
    .ok()
    .flatten();
    drop(to_server);
    let _ = session.await;
    let actual = (methods, announced);
    let expected = (
        vec![
            "notifications/subscriptions/acknowledged".to_owned(),
            "notifications/resources/updated".to_owned(),
        ],
        Some(json!(uri)),
    );
    assert_eq!(actual, expected);
}

/// What `stream` sends until `wanted` is in it (or it ends).
async fn read_until(stream: &mut tokio::net::TcpStream, wanted: &str) -> String {
    let mut heard = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&heard).contains(wanted) {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => heard.extend_from_slice(&buffer[..read]),
        }
    }
    String::from_utf8_lossy(&heard).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_commit_between_a_listens_arrival_and_its_start_is_announced() {
    let service = service_over(CommitAsAFeedStarts::default());
    let port = free_port();
    let options = todokit_mcp::http::Options {
        bind: format!("127.0.0.1:{port}"),
        ..Default::default()
    };
    let server = tokio::spawn(todokit_mcp::http::run(service, options));
    let uri = conversation_uri("default");
    let body = listen_request(&uri).to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = connect(port).await;
    stream
        .write_all(head.as_bytes())
        .await
        .expect("the request is sent");
    let heard = tokio::time::timeout(NEVER, read_until(&mut stream, "notifications/resources/updated"))
        .await
        .unwrap_or_default();
    server.abort();
    let methods_and_uris: Vec<(String, String)> = heard
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .map(|message| {
            let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
            (text(&message["method"]), text(&message["params"]["uri"]))
        })
        .collect();
    let expected = vec![
        (
            "notifications/subscriptions/acknowledged".to_owned(),
            String::new(),
        ),
        ("notifications/resources/updated".to_owned(), uri),
    ];
    assert_eq!(methods_and_uris, expected, "{heard}");
}
