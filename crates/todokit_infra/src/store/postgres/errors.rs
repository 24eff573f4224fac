//! The PostgreSQL store's failures in [`StoreError`]'s terms: where the
//! store is (never with its password) and what the driver said, every
//! cause once.

use todokit_app::StoreError;

/// Where the store connects, without the password.
pub(super) fn describe(config: &tokio_postgres::Config) -> String {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .collect();
    let ports: Vec<String> = config.get_ports().iter().map(u16::to_string).collect();
    format!(
        "postgres database {:?} at {}:{}",
        config.get_dbname().unwrap_or_default(),
        hosts.join(","),
        ports.join(",")
    )
}

/// A driver error as [`StoreError::Database`], with the server's SQLSTATE
/// when it answered.
pub(super) fn database(action: &'static str, location: &str, error: &tokio_postgres::Error) -> StoreError {
    StoreError::Database {
        action,
        location: location.to_owned(),
        message: flattened(error),
        code: error.code().map(|code| code.code().to_owned()),
    }
}

/// `error`'s message and every cause's, each once.
pub(super) fn flattened(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        let text = inner.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = inner.source();
    }
    message
}

/// A failure that is not the database's answer (a URL, an encoding, the
/// pool), as [`StoreError::Io`].
pub(super) fn backend(action: &'static str, location: &str, error: impl std::error::Error) -> StoreError {
    // The driver's own message is often just "db error"; the reason is in
    // the sources.
    StoreError::Io {
        action,
        location: location.to_owned(),
        error: std::io::Error::other(flattened(&error)),
    }
}
