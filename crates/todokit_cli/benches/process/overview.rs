//! The board's overview as a browser meets it, through a release
//! `todokit serve` on a JSON-file store of 100, 1,000 and 10,000
//! conversations, then on PostgreSQL when the build and `make bench` give
//! one: how long the first page takes over a fresh overview stream, the
//! server's CPU while 1 and then 64 overviews stay open with nothing
//! changing, and how long a commit by another process takes to reach all
//! 64 of them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use todokit::JsonFileStore;

use crate::bench_support;

const BINARY: &str = env!("CARGO_BIN_EXE_todokit");
const SIZES: [usize; 3] = [100, 1_000, 10_000];
const IDLE: Duration = Duration::from_secs(5);
const OPEN: usize = 64;

/// A running `todokit serve` and its address.
struct Board {
    child: Child,
    address: String,
}

impl Board {
    fn start(store: &str) -> Self {
        let mut child = Command::new(BINARY)
            .args(["--store", store, "serve", "--bind", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("todokit serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the board says where it is");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .expect("an address")
            .to_owned();
        Self { child, address }
    }

    /// CPU time the server has used, from `/proc`.
    fn cpu(&self) -> Duration {
        bench_support::cpu_time(&self.child.id().to_string())
    }

    /// An overview stream, read up to the end of its first page.
    fn overview(&self) -> TcpStream {
        let mut stream = TcpStream::connect(&self.address).expect("the board accepts");
        let request = format!(
            "GET /api/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.address
        );
        stream.write_all(request.as_bytes()).expect("sent");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a timeout");
        assert!(read_until_event(&mut stream, "conversations"), "no first page");
        stream
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `stream` until an event named `name` has come whole; false at
/// the end of the stream or its timeout.
fn read_until_event(stream: &mut TcpStream, name: &str) -> bool {
    let marker = format!("event: {name}\n");
    let mut seen = Vec::new();
    let mut buffer = [0u8; 64 * 1024];
    loop {
        let Ok(read) = stream.read(&mut buffer) else {
            return false;
        };
        if read == 0 {
            return false;
        }
        seen.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&seen);
        if let Some(at) = text.find(&marker)
            && text[at..].contains("\n\n")
        {
            return true;
        }
    }
}

/// Prints the overview's figures for each size on the JSON-file store,
/// then on PostgreSQL when the build has it and `make bench` gives a
/// throwaway database (`TODOKIT_TEST_POSTGRES_URL`).
pub fn report(runtime: &tokio::runtime::Runtime) {
    let folder = tempfile::tempdir().expect("a temp folder");
    let store = JsonFileStore::new(folder.path()).on_calling_thread();
    let mut had = 0;
    for size in SIZES {
        runtime.block_on(bench_support::fill(&store, "c", had, size));
        had = size;
        measure(
            folder.path().to_str().expect("a UTF-8 path"),
            "JSON-file store",
            size,
        );
    }
    #[cfg(feature = "postgres")]
    match std::env::var("TODOKIT_TEST_POSTGRES_URL") {
        Ok(url) => database(&url),
        Err(_) => {
            println!("overview on PostgreSQL: no TODOKIT_TEST_POSTGRES_URL (make bench starts a database)")
        }
    }
    #[cfg(not(feature = "postgres"))]
    println!("overview on PostgreSQL: this build has no postgres feature (make bench enables it)");
}

/// The same figures on a database the benchmark fills itself (it must be
/// empty, as `make bench`'s is, so the board lists only these).
#[cfg(feature = "postgres")]
fn database(url: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let store: std::sync::Arc<dyn todokit::ConversationContext> = std::sync::Arc::new(
        runtime
            .block_on(todokit::infra::store::PostgresStore::connect(url, 8))
            .expect("the bench database is reachable"),
    );
    let mut had = 0;
    for size in SIZES {
        runtime.block_on(bench_support::fill_concurrently(store.clone(), "c", had, size));
        had = size;
        measure(url, "PostgreSQL", size);
    }
}

/// The overview's figures through a board on `store` (a folder or a
/// database URL) holding `size` conversations, one of them `c-00003`.
fn measure(store: &str, kind: &str, size: usize) {
    let board = Board::start(store);
    let started = Instant::now();
    let first = board.overview();
    let at_start = started.elapsed();
    // The files were written just now: the store trusts their stamps once
    // they are older than its margin, and the board's first listings read
    // them whole. Idle is measured after that.
    std::thread::sleep(Duration::from_secs(1));
    let started = Instant::now();
    drop(board.overview());
    let first_page = started.elapsed();
    let cpu = board.cpu();
    std::thread::sleep(IDLE);
    let one_idle = percent(board.cpu() - cpu, IDLE);
    let mut streams: Vec<TcpStream> = (1..OPEN).map(|_| board.overview()).collect();
    let cpu = board.cpu();
    std::thread::sleep(IDLE);
    let all_idle = percent(board.cpu() - cpu, IDLE);
    let committed = Instant::now();
    let status = Command::new(BINARY)
        .args(["--store", store, "--conversation", "c-00003", "call", "TodoWrite"])
        .arg(r#"{"todos":[{"content":"moved","status":"in_progress","activeForm":"Moving"}]}"#)
        .stdout(Stdio::null())
        .status()
        .expect("todokit call runs");
    assert!(status.success(), "the commit failed");
    streams.push(first.try_clone().expect("a handle"));
    let reached = streams
        .iter_mut()
        .map(|stream| read_until_event(stream, "changed"))
        .filter(|reached| *reached)
        .count();
    let reach = committed.elapsed();
    drop(first);
    println!(
        "overview, {size} conversations ({kind}): first page over a new stream {:.1} ms ({:.1} ms for the \
         first stream after the board started, which waits for its first listing); server CPU with 1 open overview idle \
         {one_idle:.2} % of a core (goal ≤ 1 %), with {OPEN} open {all_idle:.2} % (goal: no more than one; /proc counts \
         in 10 ms ticks, 0.20 % over {} s); a commit by another process reached {reached} of {OPEN} open overviews in \
         {:.0} ms (goal ≤ 1 s)",
        first_page.as_secs_f64() * 1e3,
        at_start.as_secs_f64() * 1e3,
        IDLE.as_secs(),
        reach.as_secs_f64() * 1e3
    );
}

fn percent(used: Duration, over: Duration) -> f64 {
    used.as_secs_f64() / over.as_secs_f64() * 100.0
}
