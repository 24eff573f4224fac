//! Any bytes as what an MCP client sends `todokit mcp` on standard input:
//! the session never panics, ends when the input ends, and every line it
//! writes back is one JSON object.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use todokit::{ManualClock, MemoryStore, TodoWriteService, profiles};
use todokit_mcp::{TodoMcpServer, serve};
use tokio::io::AsyncWriteExt;

fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let service = TodoWriteService::new(
            profiles::by_name("claude-code").expect("registered"),
            Arc::new(MemoryStore::new()),
            Arc::new(ManualClock::new(0)),
        );
        let (mut client, server_input) = tokio::io::duplex(1 << 16);
        let (server_output, mut replies) = tokio::io::duplex(1 << 20);
        let session = tokio::spawn(serve(
            TodoMcpServer::new(service, "default"),
            server_input,
            server_output,
        ));
        let _ = client.write_all(data).await;
        drop(client);
        let mut out = Vec::new();
        let read = tokio::io::AsyncReadExt::read_to_end(&mut replies, &mut out);
        let (ended, _) = tokio::join!(session, read);
        assert!(ended.is_ok(), "the session panicked");
        for line in out.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let reply: serde_json::Value = serde_json::from_slice(line).expect("every reply is JSON");
            assert!(reply.is_object(), "every reply is an object");
        }
    });
});
