//! Standard input and output for an MCP session, kept off tokio's blocking
//! pool: with tokio's own `stdin()`/`stdout()` every message in and every
//! reply out is handed to a pool thread and back, four thread switches per
//! call, which on a busy machine cost more than the call itself.
//!
//! - Input: when standard input is a pipe (as every MCP client starts its
//!   server), it is read through the runtime's own event loop; anything
//!   else (a terminal, a file, a socket) through tokio's `stdin()`. The
//!   pipe's read end is made non-blocking, which a process that reads the
//!   same pipe after this one would see too; a client's pipe to its server
//!   has no other reader.
//! - Output: replies are written on the runtime's thread. A pipe's buffer
//!   takes a whole reply at once unless the client has stopped reading, and
//!   then the session has nothing to do until it reads again. Standard
//!   output is not made non-blocking, because it is often the same open
//!   pipe as standard error, where a non-blocking write could fail.

use std::io::Write;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite};

/// Standard input as the session reads it.
pub(super) fn input() -> Box<dyn AsyncRead + Unpin + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        // `from_owned_fd` refuses anything but a pipe open for reading.
        let pipe = std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .and_then(tokio::net::unix::pipe::Receiver::from_owned_fd);
        if let Ok(pipe) = pipe {
            return Box::new(pipe);
        }
    }
    Box::new(tokio::io::stdin())
}

/// Standard output, written directly on the calling thread.
pub(super) struct Output(std::io::Stdout);

impl Output {
    /// The process's standard output.
    pub(super) fn new() -> Self {
        Self(std::io::stdout())
    }
}

impl AsyncWrite for Output {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, bytes: &[u8]) -> Poll<std::io::Result<usize>> {
        Poll::Ready(self.get_mut().0.write(bytes))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(self.get_mut().0.flush())
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.poll_flush(cx)
    }
}
