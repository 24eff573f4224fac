//! `GET /metrics`: the server's metrics ([`crate::metrics`]) for the
//! operator only.

use axum::Extension;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::board::Board;
use super::tenancy::Scope;
use crate::metrics::Held;

/// `GET /metrics`: the server's metrics, for the operator only (a
/// tenant's token is 403; no token, 401, as everywhere).
pub(super) async fn route(State(board): State<Board>, Extension(scope): Extension<Scope>) -> Response {
    if scope.caller.namespace().is_some() {
        return (
            StatusCode::FORBIDDEN,
            "only the operator's token reads /metrics\n",
        )
            .into_response();
    }
    let held = Held {
        sessions: board.mcp.sessions_by_kind(),
        streams: board.holders.by_kind(),
    };
    let text = board.metrics.scrape(&held, board.tenancy.store().as_ref());
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use pretty_assertions::assert_eq;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A port free now (the server binds it right after).
    fn free_port() -> u16 {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        listener.local_addr().expect("its address").port()
    }

    /// `GET path` on `port`, its whole answer once it is there.
    async fn get(port: u16, path: &str) -> String {
        for _ in 0..100 {
            if let Ok(mut stream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await {
                let request =
                    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
                stream
                    .write_all(request.as_bytes())
                    .await
                    .expect("the request is sent");
                let mut answer = String::new();
                stream
                    .read_to_string(&mut answer)
                    .await
                    .expect("the answer is read");
                return answer;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("nothing listens on {port}");
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
            let options = super::super::Options {
                bind: format!("127.0.0.1:{port}"),
                ..Default::default()
            };
            servers.push(tokio::spawn(super::super::run(service, options)));
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
}
