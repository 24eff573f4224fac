//! Which `Host` the board answers.
//!
//! A web page on a name its owner controls can make that name resolve to
//! 127.0.0.1 (DNS rebinding); the browser then treats the board as the
//! page's own origin and lets the page read it. The only thing such a
//! request cannot fake is the name it was addressed to, so the board
//! answers a request only when its `Host` is one it serves: `localhost`,
//! an IP literal (a name cannot be rebound if there is no name), or a
//! `--public-host` the user gave, in each case with the port the board
//! listens on. Everything else gets 421 before any route runs.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The names the board answers to.
#[derive(Debug, Clone)]
pub struct Hosts {
    port: u16,
    /// `--public-host` values, lower case.
    public: Vec<String>,
}

impl Hosts {
    /// The hosts of a board listening on `port`, plus the `public` names a
    /// proxy reaches it by (`NAME` for any port, `NAME:PORT` for one).
    pub fn new(port: u16, public: &[String]) -> Self {
        let public = public
            .iter()
            .map(|name| name.trim().to_ascii_lowercase())
            .collect();
        Self { port, public }
    }

    /// Whether a request whose `Host` is `host` is addressed to the board.
    pub fn admits(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        if self.public.iter().any(|public| public_matches(public, &host)) {
            return true;
        }
        let Some((name, port)) = split_host(&host) else {
            return false;
        };
        let port_matches = match port {
            Some(port) => port == self.port,
            // A browser leaves out only the scheme's default port.
            None => self.port == 80,
        };
        port_matches && (name == "localhost" || is_ip_literal(name))
    }
}

/// Whether `host` is the public name `public` (`NAME` admits any port).
fn public_matches(public: &str, host: &str) -> bool {
    if public.is_empty() {
        return false;
    }
    if host == public {
        return true;
    }
    let has_port = split_host(public).is_some_and(|(_, port)| port.is_some());
    !has_port && split_host(host).is_some_and(|(name, _)| name == public)
}

/// `name` and `port` of a `Host` value; `None` when it is not one.
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']')?;
            let port = match after {
                "" => None,
                after => Some(after.strip_prefix(':')?),
            };
            (inside, port)
        }
        None => match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let port = match port {
        Some(port) => Some(port.parse::<u16>().ok()?),
        None => None,
    };
    (!name.is_empty()).then_some((name, port))
}

fn is_ip_literal(name: &str) -> bool {
    name.parse::<IpAddr>().is_ok()
}

/// Answers 421 to a request whose `Host` (or HTTP/2 authority) is not one
/// of the board's.
pub async fn require_own_host(State(hosts): State<Arc<Hosts>>, request: Request, next: Next) -> Response {
    // HTTP/1.1 says a request with more than one Host is a bad request: a
    // proxy and this server could each read another one.
    if request.headers().get_all(header::HOST).iter().nth(1).is_some() {
        return (
            StatusCode::BAD_REQUEST,
            "a request names one Host; this one names several\n",
        )
            .into_response();
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_owned()));
    if host.is_some_and(|host| hosts.admits(&host)) {
        return next.run(request).await;
    }
    (
        StatusCode::MISDIRECTED_REQUEST,
        format!(
            "this board answers only requests addressed to it (localhost or an IP address, port {}); to reach \
             it through another name, start todokit serve with --public-host NAME\n",
            hosts.port
        ),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn only_local_names_ip_literals_and_public_hosts_on_the_right_port_are_admitted() {
        let hosts = Hosts::new(7420, &["Board.Example".to_owned(), "proxy.test:8443".to_owned()]);
        let cases = [
            "127.0.0.1:7420",
            "localhost:7420",
            "LOCALHOST:7420",
            "[::1]:7420",
            "192.168.1.20:7420",
            "board.example",
            "board.example:443",
            "proxy.test:8443",
            "proxy.test",
            "proxy.test:80",
            "rebind.attacker.test:7420",
            "localhost:7421",
            "localhost",
            "127.0.0.1",
            "localhost.:7420",
            "[::1",
            "127.0.0.1:port",
            "",
            "evil.localhost:7420",
        ];
        let actual: Vec<(&str, bool)> = cases.iter().map(|host| (*host, hosts.admits(host))).collect();
        let expected = vec![
            ("127.0.0.1:7420", true),
            ("localhost:7420", true),
            ("LOCALHOST:7420", true),
            ("[::1]:7420", true),
            ("192.168.1.20:7420", true),
            ("board.example", true),
            ("board.example:443", true),
            ("proxy.test:8443", true),
            ("proxy.test", false),
            ("proxy.test:80", false),
            ("rebind.attacker.test:7420", false),
            ("localhost:7421", false),
            ("localhost", false),
            ("127.0.0.1", false),
            ("localhost.:7420", false),
            ("[::1", false),
            ("127.0.0.1:port", false),
            ("", false),
            ("evil.localhost:7420", false),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn on_port_80_a_host_without_a_port_is_the_same_port() {
        let hosts = Hosts::new(80, &[]);
        let actual = (
            hosts.admits("localhost"),
            hosts.admits("localhost:80"),
            hosts.admits("other"),
        );
        assert_eq!(actual, (true, true, false));
    }
}
