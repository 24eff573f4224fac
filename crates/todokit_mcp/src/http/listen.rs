//! The board's accept loop: the router on hyper's HTTP/1 connections, each
//! with a deadline on its request head.
//!
//! `axum::serve` sets no timer, so a client that opens a connection and
//! never finishes a request (or idles between requests) would hold it for
//! as long as it likes; a few hundred of them exhaust the process's files.
//! Here every head must arrive within [`REQUEST_HEAD_TIMEOUT`] of the
//! connection's turn to read one. A stream already answering (the live
//! events) is not a head being read, so it is not cut.
//!
//! On Ctrl-C or SIGTERM the server stops accepting, lets what is in flight
//! finish (the caller's `drain`: running tool calls, for a bounded time),
//! closes each connection after its current response, and returns.

use std::time::Duration;

use super::error::ServeError;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// How long a connection may take to send a request head, and how long an
/// idle kept-alive connection stays open.
pub const REQUEST_HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// How long to wait before accepting again after the system refused a
/// connection (out of file descriptors, say): retrying at once would spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// How long the open connections get, once the drain is over, to finish
/// the response each is sending before the process ends anyway.
pub const CLOSE_LIMIT: Duration = Duration::from_secs(2);

/// The most connections the process holds at once unless
/// `--max-connections` says otherwise: past it, the next is accepted only
/// when one closes (it waits in the system's backlog meanwhile), so no
/// number of clients runs the process out of file descriptors.
pub const MAX_CONNECTIONS: usize = 1024;

/// The signals that stop the server, taken over from the system's default
/// (which ends the process at once) as soon as this is made: `serve` makes
/// it before it prints anything, so a supervisor that signals as soon as
/// the first line appears meets a server that stops cleanly.
pub struct StopSignals {
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
}

impl StopSignals {
    /// Takes over SIGTERM and SIGINT (on other systems, Ctrl-C is awaited
    /// when the server runs).
    pub fn install() -> Result<Self, ServeError> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let taken =
                |kind, name| signal(kind).map_err(|source| ServeError::Signal { signal: name, source });
            Ok(Self {
                terminate: taken(SignalKind::terminate(), "SIGTERM")?,
                interrupt: taken(SignalKind::interrupt(), "SIGINT")?,
            })
        }
        #[cfg(not(unix))]
        Ok(Self {})
    }

    /// Resolves on the first of them.
    async fn received(mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.terminate.recv() => {}
            _ = self.interrupt.recv() => {}
        }
        #[cfg(not(unix))]
        {
            let _ = &mut self;
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Serves `app` on `listener` until one of `signals` (Ctrl-C, or SIGTERM:
/// what a service manager sends); then stops accepting, awaits `drain`,
/// and gives the open connections [`CLOSE_LIMIT`] to finish their
/// responses.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    signals: StopSignals,
    max_connections: usize,
    drain: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let places = std::sync::Arc::new(tokio::sync::Semaphore::new(max_connections.max(1)));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(REQUEST_HEAD_TIMEOUT);
    let graceful = GracefulShutdown::new();
    let stop = signals.received();
    tokio::pin!(stop);
    loop {
        // A place first: at the most, accepting waits until one is free.
        let place = tokio::select! {
            place = std::sync::Arc::clone(&places).acquire_owned() => place,
            _ = &mut stop => break,
        };
        let Ok(place) = place else {
            break;
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut stop => break,
        };
        let Ok((stream, _)) = accepted else {
            tokio::time::sleep(ACCEPT_BACKOFF).await;
            continue;
        };
        // An answer streamed as events goes out in several writes (the
        // head, then each event): with Nagle's algorithm on, each write
        // after the first waited for the client's delayed acknowledgement,
        // 40 ms a call on a kept-alive connection. A socket that cannot be
        // set so still serves, only slower.
        let _ = stream.set_nodelay(true);
        let connection =
            builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A connection that fails (reset, timed out head, bad request)
            // concerns its client only.
            let _ = connection.await;
            drop(place);
        });
    }
    // No new connection from here on.
    drop(listener);
    drain.await;
    let _ = tokio::time::timeout(CLOSE_LIMIT, graceful.shutdown()).await;
    Ok(())
}
