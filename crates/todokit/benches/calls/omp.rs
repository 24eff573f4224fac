//! W2 against oh-my-pi's own `todo_write`, the tool the `pi` profile
//! stands in for: its `execute` (copy the session's phases, apply the ops,
//! write the summary) on the same batch and the same 5 × 10 list, run by
//! bun, the runtime oh-my-pi ships for (`benches/omp/core.mjs`). Both
//! figures are taken in turn, in rounds, so the ratios compare minutes of
//! the same run; and the two result texts must be the same bytes.
//!
//! `make bench` installs bun and unpacks oh-my-pi's published source, and
//! says where through `TODOKIT_BENCH_BUN` and `TODOKIT_BENCH_OMP`; without
//! them the figure is reported as not measured.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Rounds of one figure each side.
const ROUNDS: usize = 3;

/// The bun process running oh-my-pi's core, answering one line per command.
struct Core {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Core {
    fn start(bun: &str, package: &str, payloads: &std::path::Path) -> Result<Self, String> {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/omp/core.mjs");
        let mut child = Command::new(bun)
            .args(["--no-install", script, package])
            .arg(payloads)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{bun}: {e}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("bun's pipes".to_owned());
        };
        Ok(Self {
            child,
            input,
            output: BufReader::new(output),
        })
    }

    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").map_err(|e| format!("writing to bun: {e}"))?;
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err("bun ended (its error is above)".to_owned()),
            Ok(_) => Ok(line.trim_end().to_owned()),
            Err(e) => Err(format!("reading from bun: {e}")),
        }
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Prints W2 against oh-my-pi's core: whether the texts are the same, then
/// each round's pair and ratio and the least ratio. `ours` measures one
/// call in nanoseconds; `our_text` is its result text.
pub fn report(
    payloads: &std::path::Path,
    our_text: &str,
    mut ours: impl FnMut() -> f64,
    say: &mut dyn FnMut(String),
) {
    let (Ok(bun), Ok(package)) = (
        std::env::var("TODOKIT_BENCH_BUN"),
        std::env::var("TODOKIT_BENCH_OMP"),
    ) else {
        say("W2 against oh-my-pi's core: not measured (TODOKIT_BENCH_BUN and TODOKIT_BENCH_OMP unset; make bench sets them)".to_owned());
        return;
    };
    if let Err(e) = compare(&bun, &package, payloads, our_text, &mut ours, say) {
        say(format!("W2 against oh-my-pi's core: not measured ({e})"));
    }
}

fn compare(
    bun: &str,
    package: &str,
    payloads: &std::path::Path,
    our_text: &str,
    ours: &mut dyn FnMut() -> f64,
    say: &mut dyn FnMut(String),
) -> Result<(), String> {
    let mut core = Core::start(bun, package, payloads)?;
    let their_text: String =
        serde_json::from_str(&core.ask("text")?).map_err(|e| format!("bun's text: {e}"))?;
    if their_text != our_text {
        return Err(format!(
            "the result texts differ:\n--- oh-my-pi\n{their_text}\n--- todokit\n{our_text}"
        ));
    }
    say("W2 against oh-my-pi's core (bun): the result texts are the same bytes".to_owned());
    let mut least = f64::INFINITY;
    for round in 1..=ROUNDS {
        let our_ns = ours();
        let their_ns: f64 = core
            .ask("measure")?
            .parse()
            .map_err(|e| format!("bun's figure: {e}"))?;
        let ratio = their_ns / our_ns;
        least = least.min(ratio);
        say(format!(
            "  round {round}: todokit {:.2} µs, oh-my-pi {:.2} µs: {ratio:.1}x faster",
            our_ns / 1e3,
            their_ns / 1e3
        ));
    }
    say(format!(
        "W2 pi batch against oh-my-pi's core: {least:.1}x faster in the slowest of {ROUNDS} rounds (goal ≥ 10x in every run)"
    ));
    Ok(())
}
