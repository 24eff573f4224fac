//! `make bench`: the anchor the bindings' call cost is compared with. The
//! README's one-item `TodoWrite` on the memory store, its arguments as
//! text, the details not read, driven the way a binding drives it (one
//! `block_on` per call); prints the median of 15 batches per call, in
//! nanoseconds, as one JSON object on standard output.
//!
//! Usage: `cargo bench -p todokit --bench binding_anchor`.

use std::hint::black_box;
use std::time::Instant;

use todokit::Todokit;

/// The README's call: one item, in progress.
const ARGUMENTS: &str = r#"{"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}"#;
/// Batches measured; the figure is their median.
const BATCHES: usize = 15;
/// Calls per batch.
const CALLS: u32 = 2_000;

fn main() {
    let service = match Todokit::builder()
        .profile("claude-code")
        .map(|b| b.memory_store().build())
    {
        Ok(Ok(service)) => service,
        Ok(Err(error)) => return eprintln!("binding_anchor: {error}"),
        Err(error) => return eprintln!("binding_anchor: {error}"),
    };
    let mut per_call: Vec<f64> = Vec::with_capacity(BATCHES);
    // One warm-up batch, then the measured ones.
    for batch in 0..=BATCHES {
        let started = Instant::now();
        for _ in 0..CALLS {
            let result = futures_executor::block_on(service.call("bench", "TodoWrite", black_box(ARGUMENTS)));
            match result {
                Ok(result) => {
                    black_box(&result.content);
                }
                Err(error) => return eprintln!("binding_anchor: {error}"),
            }
        }
        if batch > 0 {
            per_call.push(started.elapsed().as_nanos() as f64 / f64::from(CALLS));
        }
    }
    per_call.sort_by(f64::total_cmp);
    println!("{{\"rust_call_ns\": {:.0}}}", per_call[BATCHES / 2]);
}
