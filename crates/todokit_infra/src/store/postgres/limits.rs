//! How long the store waits on the database.
//!
//! A server that stops answering (stopped, overloaded, cut off by the
//! network) would otherwise hold a call, and every request of a board
//! that shares the store, for as long as the operating system keeps the
//! socket open. Every wait is bounded: a connection by `connect_timeout`,
//! a statement by the server's `statement_timeout`, and, since a stopped
//! server cannot time out its own statements, the client gives up a little
//! after that. The URL's own settings win; where it sets none, the
//! defaults here apply.

use std::time::Duration;

/// How long opening a connection may take unless the URL sets
/// `connect_timeout` (in seconds, as libpq reads it).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long one statement may run unless the URL's `options` set
/// `statement_timeout` (`options=-c%20statement_timeout%3D10s`, say).
pub const DEFAULT_STATEMENT_TIMEOUT: Duration = Duration::from_secs(5);

/// How much longer than the statement timeout the client waits for an
/// answer before it stops waiting itself.
const CLIENT_GRACE: Duration = Duration::from_secs(1);

/// The waits of one store.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Limits {
    /// The connection timeout in force.
    connect: Duration,
    /// The statement timeout in force; `None` when the URL turned it off.
    statement: Option<Duration>,
}

impl Limits {
    /// Sets the defaults on `config` where the URL set nothing, and returns
    /// the limits in force.
    pub(super) fn apply(config: &mut tokio_postgres::Config) -> Self {
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(DEFAULT_CONNECT_TIMEOUT);
        }
        let connect = config
            .get_connect_timeout()
            .copied()
            .unwrap_or(DEFAULT_CONNECT_TIMEOUT);
        let options = config.get_options().unwrap_or_default().to_owned();
        let statement = match statement_timeout_in(&options) {
            Some(set) => set,
            None => {
                let millis = DEFAULT_STATEMENT_TIMEOUT.as_millis();
                let joined = format!("{options} -c statement_timeout={millis}");
                config.options(joined.trim_start());
                Some(DEFAULT_STATEMENT_TIMEOUT)
            }
        };
        Self { connect, statement }
    }

    /// How long the client waits for one statement's answer; `None`: as
    /// long as it takes (the URL turned the statement timeout off).
    pub(super) fn answer(&self) -> Option<Duration> {
        self.statement.map(|statement| statement + CLIENT_GRACE)
    }

    /// How long getting a ready connection may take: opening it, and the
    /// migration on the first one.
    pub(super) fn connection(&self) -> Duration {
        self.connect + self.answer().unwrap_or(DEFAULT_STATEMENT_TIMEOUT + CLIENT_GRACE)
    }
}

/// The `statement_timeout` that `options` set: `Some(None)` when set to 0
/// (no limit), `Some(Some(d))` when set, `None` when not set. A value
/// this cannot read counts as the default (the server still applies it).
fn statement_timeout_in(options: &str) -> Option<Option<Duration>> {
    let at = options.rfind("statement_timeout")?;
    let rest = options[at + "statement_timeout".len()..].trim_start();
    let value = rest.strip_prefix('=')?.trim_start();
    let value: String = value.chars().take_while(|c| !c.is_whitespace()).collect();
    let value = value.trim_matches(['\'', '"']);
    let digits_end = value.find(|c: char| !c.is_ascii_digit()).unwrap_or(value.len());
    let Ok(number) = value[..digits_end].parse::<u64>() else {
        return Some(Some(DEFAULT_STATEMENT_TIMEOUT));
    };
    let duration = match value[digits_end..].trim() {
        "" | "ms" => Duration::from_millis(number),
        "us" => Duration::from_micros(number),
        "s" => Duration::from_secs(number),
        "min" => Duration::from_secs(number.saturating_mul(60)),
        "h" => Duration::from_secs(number.saturating_mul(3600)),
        "d" => Duration::from_secs(number.saturating_mul(86_400)),
        _ => DEFAULT_STATEMENT_TIMEOUT,
    };
    Some((!duration.is_zero()).then_some(duration))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn limits(url: &str) -> (Limits, Option<String>) {
        let mut config: tokio_postgres::Config = url.parse().expect("a URL");
        let limits = Limits::apply(&mut config);
        (limits, config.get_options().map(str::to_owned))
    }

    #[test]
    fn the_defaults_apply_where_the_url_sets_nothing_and_its_own_settings_win() {
        let secs = Duration::from_secs;
        let actual = vec![
            limits("postgresql://u@h/db"),
            limits("postgresql://u@h/db?connect_timeout=2&options=-c%20search_path%3Dx"),
            limits("postgresql://u@h/db?options=-c%20statement_timeout%3D30s"),
            limits("postgresql://u@h/db?options=-c%20statement_timeout%3D0"),
            limits("postgresql://u@h/db?options=--statement_timeout%3D1500"),
        ];
        let expected = vec![
            (
                Limits {
                    connect: secs(5),
                    statement: Some(secs(5)),
                },
                Some("-c statement_timeout=5000".to_owned()),
            ),
            (
                Limits {
                    connect: secs(2),
                    statement: Some(secs(5)),
                },
                Some("-c search_path=x -c statement_timeout=5000".to_owned()),
            ),
            (
                Limits {
                    connect: secs(5),
                    statement: Some(secs(30)),
                },
                Some("-c statement_timeout=30s".to_owned()),
            ),
            (
                Limits {
                    connect: secs(5),
                    statement: None,
                },
                Some("-c statement_timeout=0".to_owned()),
            ),
            (
                Limits {
                    connect: secs(5),
                    statement: Some(Duration::from_millis(1500)),
                },
                Some("--statement_timeout=1500".to_owned()),
            ),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_client_waits_a_little_longer_than_the_server_and_forever_only_when_told() {
        let (set, _) = limits("postgresql://u@h/db");
        let (off, _) = limits("postgresql://u@h/db?options=-c%20statement_timeout%3D0");
        let actual = (set.answer(), set.connection(), off.answer(), off.connection());
        let expected = (
            Some(Duration::from_secs(6)),
            Duration::from_secs(11),
            None,
            Duration::from_secs(11),
        );
        assert_eq!(actual, expected);
    }
}
