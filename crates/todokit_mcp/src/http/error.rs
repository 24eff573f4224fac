//! Why [`super::run`] did not serve, or stopped.

/// Why the HTTP server did not start, or could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The options cannot be served as given (a usage error: the command
    /// exits 2); the text says what to give instead.
    #[error("{0}")]
    Refused(String),
    /// The address cannot be listened on (in use, or not this machine's).
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address asked for.
        address: std::net::SocketAddr,
        /// What the system said.
        source: std::io::Error,
    },
    /// A signal the server stops or reloads on cannot be taken over.
    #[error("cannot handle {signal}: {source}")]
    Signal {
        /// `SIGTERM`, `SIGINT` or `SIGHUP`.
        signal: &'static str,
        /// What the system said.
        source: std::io::Error,
    },
}
