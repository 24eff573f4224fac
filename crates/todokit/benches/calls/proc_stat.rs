//! What `/proc` says about a process (Linux): its CPU time and threads.
//! Shared by both benchmarks (`benches/process` includes this file).

use std::time::Duration;

/// CPU time (user and system) the process `pid` has used (`"self"` for
/// this one); the kernel counts in 10 ms ticks.
pub fn cpu_time(pid: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name, which may hold spaces and is
    // closed by the last parenthesis.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime, fields 14 and 15 of the line: the 12th and 13th
    // after the command name.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// The threads this process runs.
#[allow(dead_code)]
pub fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}
