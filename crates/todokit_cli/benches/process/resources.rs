//! How soon a client subscribed to a conversation resource of `todokit mcp`
//! hears of a commit made by another writer: the time from the commit's
//! return to the `notifications/resources/updated` line, over 20 commits
//! spaced so each is seen on its own.

use std::time::{Duration, Instant};

use serde_json::json;
use todokit::TodoWriteService;

use super::{Server, median};

/// Commits through `writer` (another process as the server sees it) to a
/// conversation the `server`'s client follows, and prints how long each
/// took to reach the client.
pub fn report(
    server: &mut Server,
    writer: &TodoWriteService,
    runtime: &tokio::runtime::Runtime,
    place: &str,
) {
    let conversation = "followed";
    let uri = todokit_mcp::conversation_uri(conversation);
    server.send(
        &json!({"jsonrpc": "2.0", "id": "follow", "method": "resources/subscribe", "params": {"uri": uri}}),
    );
    let answer = server.receive();
    assert_eq!(answer["id"], "follow", "{answer}");
    let mut delays = Vec::new();
    for round in 0..20 {
        let args = json!({"todos": [{"content": format!("step {round}"), "status": "in_progress", "activeForm": "Stepping"}]});
        let result = runtime
            .block_on(writer.call(conversation, "TodoWrite", &args.to_string()))
            .expect("the commit runs");
        assert!(!result.is_error, "{}", result.content);
        let committed = Instant::now();
        loop {
            let message = server.receive();
            if message["method"] == "notifications/resources/updated" && message["params"]["uri"] == uri {
                break;
            }
        }
        delays.push(committed.elapsed().as_secs_f64() * 1e3);
        // Past the folder watch's next look, so the next commit is its own.
        std::thread::sleep(Duration::from_millis(250));
    }
    let slowest = delays.iter().copied().fold(0.0, f64::max);
    println!(
        "MCP resources: a subscribed client hears of another writer's commit on the JSON-file store on {place} \
         {:.0} ms after it (median of 20; slowest {slowest:.0} ms; goal ≤ 1000 ms)",
        median(delays)
    );
}
