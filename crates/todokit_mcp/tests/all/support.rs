//! What the server's tests share: a service on a store of the test's
//! choosing, a free port and a request to a server there, a store that
//! lets a commit land in the moment a listen's window would hide it, and
//! the listen request both transports are sent.

use serde_json::{Value, json};
use todokit::MemoryStore;

/// A store on which a commit lands as the first feed of a list starts
/// (its watch is set up before it reads): as if another writer committed
/// in the moment between the reader's look at a listen request and the
/// listen's start, after rmcp acknowledged it.
#[derive(Debug, Default)]
pub struct CommitAsAFeedStarts {
    inner: MemoryStore,
    fired: std::sync::atomic::AtomicBool,
}

#[async_trait::async_trait]
impl todokit::ConversationContext for CommitAsAFeedStarts {
    async fn load(&self, conversation: &str) -> Result<todokit::TodoState, todokit::StoreError> {
        self.inner.load(conversation).await
    }

    async fn save(
        &self,
        conversation: &str,
        expected: u64,
        state: &todokit::TodoState,
    ) -> Result<(), todokit::StoreError> {
        self.inner.save(conversation, expected, state).await
    }

    fn is_durable(&self) -> bool {
        false
    }

    fn watch(&self, conversation: &str, wake: todokit::Wake) -> Option<todokit::WatchGuard> {
        let guard = self.inner.watch(conversation, wake);
        if !self.fired.swap(true, std::sync::atomic::Ordering::SeqCst) {
            let landed =
                todokit::TodoState::flat(vec![todokit::Todo::new("landed in the window")]).version(1u64);
            let runtime = tokio::runtime::Handle::current();
            let saved =
                tokio::task::block_in_place(|| runtime.block_on(self.inner.save(conversation, 0, &landed)));
            saved.expect("the commit lands");
        }
        guard
    }
}

/// A `subscriptions/listen` request of protocol 2026-07-28 following `uri`.
pub fn listen_request(uri: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": "listen:0",
        "method": "subscriptions/listen",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
                "io.modelcontextprotocol/clientCapabilities": {},
            },
            "notifications": { "resourceSubscriptions": [uri] },
        },
    })
}

/// A `claude-code` service over `store`, on a fixed clock.
pub fn service_over(store: impl todokit::ConversationContext + 'static) -> todokit::TodoWriteService {
    todokit::TodoWriteService::new(
        todokit::profiles::by_name("claude-code").expect("registered"),
        std::sync::Arc::new(store),
        std::sync::Arc::new(todokit::ManualClock::new(1_700_000_000_000)),
    )
}

/// A port nothing listens on now (the server binds it right after).
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// A connection to the server on `port`, once it accepts.
pub async fn connect(port: u16) -> tokio::net::TcpStream {
    for _ in 0..200 {
        if let Ok(stream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await {
            return stream;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("nothing listens on {port}");
}
