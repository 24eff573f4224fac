//! `GET /metrics` counts each server's own traffic: two servers in one
//! process count apart.

use pretty_assertions::assert_eq;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{connect, free_port};

/// `GET path` on `port`, its whole answer once it is there.
async fn get(port: u16, path: &str) -> String {
    let mut stream = connect(port).await;
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("the request is sent");
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .await
        .expect("the answer is read");
    answer
}

/// The count of pages a scrape says its server answered.
fn pages(scrape: &str) -> String {
    scrape
        .lines()
        .find(|line| line.starts_with("todokit_http_request_duration_seconds_count{surface=\"page\"}"))
        .and_then(|line| line.split_whitespace().last())
        .unwrap_or("none")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_in_one_process_count_apart() {
    let mut servers = Vec::new();
    let mut ports = Vec::new();
    for _ in 0..2 {
        let port = free_port();
        let service = todokit::Todokit::builder()
            .profile("claude-code")
            .and_then(|builder| builder.memory_store().build())
            .expect("a memory service");
        let options = todokit_mcp::http::Options {
            bind: format!("127.0.0.1:{port}"),
            ..Default::default()
        };
        servers.push(tokio::spawn(todokit_mcp::http::run(service, options)));
        ports.push(port);
    }
    for _ in 0..2 {
        assert!(get(ports[0], "/").await.starts_with("HTTP/1.1 200"));
    }
    let first = get(ports[0], "/metrics").await;
    let second = get(ports[1], "/metrics").await;
    for server in servers {
        server.abort();
    }
    let actual = (pages(&first), pages(&second));
    let expected = ("2".to_owned(), "none".to_owned());
    assert_eq!(actual, expected, "{first}\n{second}");
}
