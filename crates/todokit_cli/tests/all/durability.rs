//! Nothing is lost: many writers in many processes, and writers killed at
//! random moments.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use pretty_assertions::assert_eq;
use todokit::{ConversationContext, JsonFileStore};

use crate::support::cli::claude_code_on;

/// Set in a child process to the store it writes to.
const CHILD_STORE: &str = "TODOKIT_DURABILITY_CHILD_STORE";
const PROCESSES: usize = 4;
const TASKS: usize = 4;
const CALLS: usize = 5;

/// A small deterministic generator for kill delays (no dependency needed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// In a child: `TASKS` tasks each make `CALLS` calls, printing one
/// `committed` line per call that returned without error.
async fn child(store: &str) {
    let service = Arc::new(claude_code_on(store).await);
    let mut handles = Vec::new();
    for task in 0..TASKS {
        let service = service.clone();
        handles.push(tokio::spawn(async move {
            for call in 0..CALLS {
                let args = format!(
                    r#"{{"todos":[{{"content":"p{} t{task} c{call}","status":"in_progress","activeForm":"x"}}]}}"#,
                    std::process::id()
                );
                match service.call("shared", "TodoWrite", &args).await {
                    Ok(result) if !result.is_error => println!("committed"),
                    Ok(result) => println!("refused {}", result.content),
                    Err(e) => println!("failed {e}"),
                }
            }
        }));
    }
    for handle in handles {
        handle.await.expect("a writer task finished");
    }
}

/// In the parent: runs `PROCESSES` copies of this test binary as children
/// running test `test` of this module, writing to `store`; returns how many
/// calls they say committed and every line that was not a commit.
fn run_children(test: &str, store: &str) -> (usize, Vec<String>) {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let test = crate::support::harness::exact_name(module_path!(), test);
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            Command::new(&exe)
                .args([test.as_str(), "--exact", "--nocapture", "--test-threads=1"])
                .env(CHILD_STORE, store)
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("a child starts")
        })
        .collect();
    let mut committed = 0;
    let mut other = Vec::new();
    for child in children {
        let output = child.wait_with_output().expect("a child finishes");
        // With --nocapture the harness's own "test ... " has no newline, so
        // the first report of a child shares its line.
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            if line.ends_with("committed") {
                committed += 1;
            } else if line.contains("refused ") || line.contains("failed ") {
                other.push(line.to_owned());
            }
        }
    }
    (committed, other)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_in_several_processes_lose_no_update_on_the_file_store() {
    if let Ok(store) = std::env::var(CHILD_STORE) {
        return child(&store).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_str().expect("a UTF-8 temp path").to_owned();
    let (committed, other) = tokio::task::spawn_blocking(move || {
        run_children(
            "tasks_in_several_processes_lose_no_update_on_the_file_store",
            &store,
        )
    })
    .await
    .unwrap();
    let stored = JsonFileStore::new(dir.path())
        .load("shared")
        .await
        .expect("the file is whole");
    let actual = (committed, other, stored.version as usize);
    let expected = (
        PROCESSES * TASKS * CALLS,
        Vec::<String>::new(),
        PROCESSES * TASKS * CALLS,
    );
    assert_eq!(actual, expected);
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_in_several_processes_lose_no_update_on_postgres() {
    if let Ok(store) = std::env::var(CHILD_STORE) {
        return child(&store).await;
    }
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
    // A fresh conversation name per run: the database outlives the test.
    let service = claude_code_on(&url).await;
    let before = service.state("shared").await.expect("readable").version as usize;
    let run_url = url.clone();
    let (committed, other) = tokio::task::spawn_blocking(move || {
        run_children("tasks_in_several_processes_lose_no_update_on_postgres", &run_url)
    })
    .await
    .unwrap();
    let after = service.state("shared").await.expect("readable").version as usize;
    let actual = (committed, other, after - before);
    let expected = (
        PROCESSES * TASKS * CALLS,
        Vec::<String>::new(),
        PROCESSES * TASKS * CALLS,
    );
    assert_eq!(actual, expected);
}

/// A shell loop of `todokit call`s, each writing the version it expects
/// to commit into the item's text, printing `committed N` after each.
fn writer_loop(store: &Path) -> std::process::Child {
    let script = r#"exe="$1"; store="$2"
        while true; do
          v=$("$exe" --store "$store" show --format json | sed -n 's/^  "version": \([0-9]*\),*$/\1/p')
          n=$((v + 1))
          "$exe" --store "$store" call TodoWrite "{\"todos\":[{\"content\":\"version $n\",\"status\":\"in_progress\",\"activeForm\":\"x\"}]}" >/dev/null || exit 1
          echo "committed $n"
        done"#;
    let mut cmd = Command::new("bash");
    cmd.args(["-c", script, "writer", env!("CARGO_BIN_EXE_todokit")])
        .arg(store)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd.spawn().expect("the writer loop starts")
}

#[cfg(unix)]
#[tokio::test]
async fn a_writer_killed_at_random_moments_leaves_the_last_committed_state() {
    const KILLS: usize = 25;
    let dir = tempfile::tempdir().unwrap();
    let store = JsonFileStore::new(dir.path());
    let mut random = Lcg(0x0074_6f64_6f6b_6974);
    let mut results = Vec::new();
    // The version known to be committed: what the last writer printed, or
    // what the store held after the kill before.
    let mut known = 0;
    for _ in 0..KILLS {
        let mut writer = writer_loop(dir.path());
        let stdout = writer.stdout.take().expect("stdout is piped");
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .filter_map(|l| l.strip_prefix("committed ").and_then(|n| n.parse::<u64>().ok()))
                .last()
        });
        tokio::time::sleep(Duration::from_millis(5 + random.next(60))).await;
        // The whole group: the shell and the `todokit` it is running.
        let group = writer.id().to_string();
        Command::new("kill")
            .args(["-KILL", "--", &format!("-{group}")])
            .status()
            .expect("kill runs");
        let _ = writer.wait();
        let last_printed = reader
            .join()
            .expect("the reader ends")
            .unwrap_or(known)
            .max(known);
        let state = store.load("default").await;
        let ok = match &state {
            Ok(state) => {
                let content = state
                    .tasks()
                    .next()
                    .map(|t| t.content.clone())
                    .unwrap_or_default();
                // The call may have committed before the shell could print it.
                let version_ok = state.version == last_printed || state.version == last_printed + 1;
                let whole = state.version == 0 || content == format!("version {}", state.version);
                version_ok && whole
            }
            Err(_) => false,
        };
        if let Ok(state) = &state {
            known = state.version;
        }
        results.push((
            ok,
            state.map(|s| s.version).map_err(|e| e.to_string()),
            last_printed,
        ));
    }
    let failures: Vec<_> = results.iter().filter(|(ok, _, _)| !ok).collect();
    let progressed = results.last().and_then(|(_, v, _)| v.clone().ok()).unwrap_or(0);
    assert_eq!(failures, Vec::<&(bool, Result<u64, String>, u64)>::new());
    assert!(progressed > 0, "the writer never committed anything: {results:?}");
    // A killed writer may leave its temporary file; the next write of the
    // conversation removes it once the folder was not swept for a minute
    // (its stamp, set back here, says when it was).
    let stamp = dir.path().join(".todokit-swept");
    if let Ok(file) = std::fs::File::options().write(true).open(&stamp) {
        let _ = file.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(120));
    }
    let after = Command::new(env!("CARGO_BIN_EXE_todokit"))
        .arg("--store")
        .arg(dir.path())
        .args([
            "call",
            "TodoWrite",
            r#"{"todos":[{"content":"after","status":"pending","activeForm":"a"}]}"#,
        ])
        .env_remove("TODOKIT_CONVERSATION")
        .env_remove("TODOKIT_PROFILE")
        .output()
        .expect("todokit call runs");
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert_eq!((after.status.success(), leftovers), (true, Vec::<String>::new()));
}

#[cfg(unix)]
#[test]
fn links_planted_in_the_store_never_let_todokit_call_change_a_file_outside_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, b"precious").unwrap();
    let call = |content: &str| {
        Command::new(env!("CARGO_BIN_EXE_todokit"))
            .arg("--store")
            .arg(&store)
            .args(["call", "TodoWrite"])
            .arg(format!(
                r#"{{"todos":[{{"content":"{content}","status":"pending","activeForm":"a"}}]}}"#
            ))
            .env_remove("TODOKIT_CONVERSATION")
            .env_remove("TODOKIT_PROFILE")
            .output()
            .expect("todokit call runs")
    };
    let first = call("first");
    // Where an older build put its temporary file: now just a stray link.
    std::os::unix::fs::symlink(&victim, store.join("c-default.json.tmp")).unwrap();
    let past_a_stray_link = call("second");
    // The state file itself replaced by a link.
    std::fs::remove_file(store.join("c-default.json")).unwrap();
    std::os::unix::fs::symlink(&victim, store.join("c-default.json")).unwrap();
    let through_a_state_link = call("third");
    let actual = (
        first.status.success(),
        past_a_stray_link.status.success(),
        through_a_state_link.status.code(),
        String::from_utf8_lossy(&through_a_state_link.stderr).contains("never follows links"),
        std::fs::read(&victim).unwrap(),
    );
    let expected = (true, true, Some(1), true, b"precious".to_vec());
    assert_eq!(actual, expected);
}
