//! A real pseudo-terminal for tests: a private tmux server per pane.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A detached tmux session of its own (a private socket, so nothing of the
/// user's tmux is touched), killed on drop.
pub struct Pane {
    socket: String,
}

impl Pane {
    pub fn start(dir: &Path, width: u16, height: u16, command: &str) -> Pane {
        // One socket per pane: tests of one binary run in parallel.
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "todokit-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let pane = Pane { socket };
        let status = pane
            .tmux()
            .current_dir(dir)
            .args([
                "new-session",
                "-d",
                "-x",
                &width.to_string(),
                "-y",
                &height.to_string(),
                command,
            ])
            .status()
            .expect("tmux runs (make test installs it)");
        assert!(status.success(), "tmux new-session failed");
        pane
    }

    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.args(["-L", &self.socket, "-f", "/dev/null"]);
        cmd
    }

    pub fn resize(&self, width: u16, height: u16) {
        let status = self
            .tmux()
            .args([
                "resize-window",
                "-x",
                &width.to_string(),
                "-y",
                &height.to_string(),
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux resize-window failed");
    }

    /// The visible screen, one string per row, trailing blanks trimmed.
    pub fn capture(&self) -> Vec<String> {
        let out = self
            .tmux()
            .args(["capture-pane", "-p"])
            .output()
            .expect("tmux runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut rows: Vec<String> = text.lines().map(|r| r.trim_end().to_owned()).collect();
        while rows.last().is_some_and(String::is_empty) {
            rows.pop();
        }
        rows
    }

    /// Waits up to 10 s for a screen that `ready` accepts; returns the last
    /// screen seen either way.
    pub fn wait_for(&self, ready: impl Fn(&[String]) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let rows = self.capture();
            if ready(&rows) || Instant::now() > deadline {
                return rows;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}
