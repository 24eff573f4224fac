//! The JSON-file store's unit tests: round trips, conflicts, hostile ids,
//! foreign fields, links and leftovers.

use super::*;
use pretty_assertions::assert_eq;
use std::collections::BTreeSet;
use std::sync::Arc;
use todokit_app::{ManualClock, TodoWriteService};
use todokit_domain::Todo;

fn state(content: &str, version: u64) -> TodoState {
    TodoState::flat(vec![Todo::new(content)]).version(version)
}

#[tokio::test]
async fn a_missing_conversation_is_an_empty_list() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path().join("not-yet"));
    let actual = fixture.load("x").await.unwrap();
    let expected = TodoState::new();
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn save_then_load_round_trips_and_leaves_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    fixture.save("conv", 0, &state("a", 1)).await.unwrap();
    let files = names_in(dir.path());
    let actual = (fixture.load("conv").await.unwrap(), files);
    let expected = (
        state("a", 1),
        BTreeSet::from(["c-conv.json".to_owned(), "c-conv.lock".to_owned()]),
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_stale_version_is_a_conflict_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    fixture.save("c", 0, &state("first", 1)).await.unwrap();
    let result = fixture.save("c", 0, &state("second", 1)).await;
    let actual = (
        matches!(
            result,
            Err(StoreError::Conflict {
                expected: 0,
                found: 1,
                ..
            })
        ),
        fixture.load("c").await.unwrap(),
    );
    let expected = (true, state("first", 1));
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_corrupt_file_is_reported_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    let path = fixture.path_for("c");
    fs::write(&path, b"{\"format\":1,\"conv").unwrap();
    let load = fixture.load("c").await;
    let save = fixture.save("c", 0, &state("x", 1)).await;
    let actual = (
        matches!(load, Err(StoreError::Corrupt { .. })),
        matches!(save, Err(StoreError::Corrupt { .. })),
        fs::read(&path).unwrap(),
    );
    let expected = (true, true, b"{\"format\":1,\"conv".to_vec());
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_file_from_a_newer_format_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    fs::write(
        fixture.path_for("c"),
        br#"{"format":2,"conversation":"c","state":{}}"#,
    )
    .unwrap();
    let actual = fixture.load("c").await.map_err(|e| e.to_string());
    let expected = Err(format!(
        "the stored list at {} cannot be read (file format 2 is not the format 1 this todokit reads); \
         it was left untouched: repair or remove it",
        fixture.path_for("c").display()
    ));
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_file_an_earlier_build_named_is_listed_read_and_moved_to_its_readable_name() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    let id = "Ünïcode space";
    // What an earlier build wrote: the same contents under the old name.
    fixture.save(id, 0, &state("a", 1)).await.unwrap();
    let legacy = dir.path().join(format!("{}.json", names::legacy_file_stem(id)));
    fs::rename(fixture.path_for(id), &legacy).unwrap();
    fs::write(
        dir.path().join(format!("{}.lock", names::legacy_file_stem(id))),
        b"",
    )
    .unwrap();
    let listed: Vec<(String, bool)> = fixture
        .conversations()
        .await
        .unwrap()
        .into_iter()
        .map(|c| (c.id, c.summary.is_ok()))
        .collect();
    let loaded = fixture.load(id).await.unwrap();
    fixture.save(id, 1, &state("b", 2)).await.unwrap();
    let files = names_in(dir.path());
    let actual = (listed, loaded, fixture.load(id).await.unwrap(), files);
    let stem = JsonFileStore::file_stem(id);
    let expected = (
        vec![(id.to_owned(), true)],
        state("a", 1),
        state("b", 2),
        BTreeSet::from([format!("{stem}.json"), format!("{stem}.lock")]),
    );
    assert_eq!(actual, expected);
    assert!(stem.starts_with("c-ünïcode-space~"), "{stem}");
}

#[tokio::test]
async fn hostile_ids_stay_inside_the_folder_and_never_share_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("store");
    let fixture = JsonFileStore::new(&root);
    let ids = vec![
        "../../etc/x".to_owned(),
        "a/b".to_owned(),
        "a\\b".to_owned(),
        // Names Windows reserves, with and without an extension, and
        // endings it drops.
        "CON".to_owned(),
        "con".to_owned(),
        "nul".to_owned(),
        "COM1".to_owned(),
        "aux.txt".to_owned(),
        "name.".to_owned(),
        "name ".to_owned(),
        "".to_owned(),
        ".".to_owned(),
        "x\0y".to_owned(),
        "🦀".repeat(2_500),
        format!("{}!", "🦀".repeat(2_500)),
    ];
    for (i, id) in ids.iter().enumerate() {
        fixture.save(id, 0, &state(&i.to_string(), 1)).await.unwrap();
    }
    let mut loaded = Vec::new();
    for id in &ids {
        loaded.push(fixture.load(id).await.unwrap());
    }
    let entries = names_in(&root).len();
    let outside = fs::read_dir(dir.path()).unwrap().count();
    let actual = (loaded, entries, outside);
    let expected = (
        (0..ids.len())
            .map(|i| state(&i.to_string(), 1))
            .collect::<Vec<_>>(),
        ids.len() * 2,
        1,
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_hashed_file_is_checked_against_the_id_that_asks_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    let long = "x".repeat(MAX_SLUG_CHARS * 4);
    fixture.save(&long, 0, &state("a", 1)).await.unwrap();
    // Pretend another id hashed to the same name by copying the file.
    let other = "y".repeat(MAX_SLUG_CHARS * 4);
    fs::copy(fixture.path_for(&long), fixture.path_for(&other)).unwrap();
    let actual = matches!(fixture.load(&other).await, Err(StoreError::Corrupt { .. }));
    let expected = true;
    assert_eq!(actual, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_lose_no_update() {
    const WRITERS: u64 = 8;
    const CALLS: u64 = 10;
    let dir = tempfile::tempdir().unwrap();
    let profile = crate::test_support::dialect::profile();
    let service = TodoWriteService::new(
        profile,
        Arc::new(JsonFileStore::new(dir.path())),
        Arc::new(ManualClock::new(0)),
    );
    let mut handles = Vec::new();
    for writer in 0..WRITERS {
        let service = service.clone();
        handles.push(tokio::spawn(async move {
            for call in 0..CALLS {
                let args = format!(
                    r#"{{"todos":[{{"content":"w{writer} c{call}","status":"pending","activeForm":"x"}}]}}"#
                );
                let result = service.call("shared", "TodoWrite", &args).await.unwrap();
                assert!(!result.is_error, "{}", result.content);
            }
        }));
    }
    for handle in handles {
        handle.await.unwrap();
    }
    let actual = service.state("shared").await.unwrap().version;
    let expected = WRITERS * CALLS;
    assert_eq!(actual, expected);
}

/// The names in `dir`, but the sweep stamp (`.todokit-swept`), which any
/// first write may leave.
fn names_in(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".todokit-swept")
        .collect()
}

#[tokio::test]
async fn fields_this_build_does_not_know_survive_a_write_at_every_level() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    let service = TodoWriteService::new(
        crate::test_support::dialect::profile(),
        Arc::new(fixture.clone()),
        Arc::new(ManualClock::new(0)),
    );
    let newer = serde_json::json!({
        "format": 1,
        "conversation": "c",
        "written_by": "todokit 9",
        "state": {
            "version": 4,
            "archive": [{"content": "old"}],
            "phases": [{
                "name": "",
                "color": "teal",
                "tasks": [
                    {"content": "keep me", "status": "pending", "estimate": {"hours": 3}},
                    {"content": "drop me", "status": "pending", "estimate": {"hours": 1}}
                ]
            }]
        }
    });
    fs::write(fixture.path_for("c"), serde_json::to_vec(&newer).unwrap()).unwrap();
    let args = r#"{"todos":[{"content":"keep me","status":"in_progress","activeForm":"Keeping"},{"content":"new","status":"pending","activeForm":"Adding"}]}"#;
    let result = service.call("c", "TodoWrite", args).await.unwrap();
    let written: serde_json::Value =
        serde_json::from_slice(&fs::read(fixture.path_for("c")).unwrap()).unwrap();
    let actual = (
        result.is_error,
        written["written_by"].clone(),
        written["state"]["version"].clone(),
        written["state"]["archive"].clone(),
        written["state"]["phases"][0]["color"].clone(),
        written["state"]["phases"][0]["tasks"][0]["estimate"].clone(),
        written["state"]["phases"][0]["tasks"][1].get("estimate").cloned(),
    );
    let expected = (
        false,
        serde_json::json!("todokit 9"),
        serde_json::json!(5),
        serde_json::json!([{"content": "old"}]),
        serde_json::json!("teal"),
        serde_json::json!({"hours": 3}),
        None,
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_shape_this_build_does_not_know_is_refused_never_read_as_empty() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    let shapes = [
        r#"{"format":1,"conversation":"c","state":{"version":3,"lists":[{"items":[]}]}}"#,
        r#"{"format":1,"conversation":"c","state":{"version":3,"phases":[{"name":"","items":[{"content":"a"}]}]}}"#,
        r#"{"format":1,"conversation":"c","state":{"version":3,"phases":[{"name":"","tasks":[{"content":"a","status":"paused"}]}]}}"#,
        r#"{"conversation":"c","state":{"version":3,"phases":[]}}"#,
    ];
    let mut actual = Vec::new();
    for shape in shapes {
        fs::write(fixture.path_for("c"), shape).unwrap();
        let load = fixture.load("c").await;
        let save = fixture.save("c", 3, &state("x", 4)).await;
        actual.push((
            matches!(load, Err(StoreError::Corrupt { .. })),
            matches!(save, Err(StoreError::Corrupt { .. })),
            fs::read_to_string(fixture.path_for("c")).unwrap() == shape,
        ));
    }
    let expected = vec![(true, true, true); shapes.len()];
    assert_eq!(actual, expected);
}

#[cfg(any(unix, windows))]
#[tokio::test]
async fn links_planted_in_the_store_never_change_a_file_outside_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("store");
    let fixture = JsonFileStore::new(&root);
    fixture.save("c", 0, &state("first", 1)).await.unwrap();
    let victim = dir.path().join("victim.txt");
    fs::write(&victim, b"precious").unwrap();
    let link = |at: PathBuf| {
        let _ = fs::remove_file(&at);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, at).unwrap();
        // Windows' own link to a file (a reparse point), as `mklink` makes.
        #[cfg(windows)]
        std::os::windows::fs::symlink_file(&victim, &at).unwrap();
        // Wine says yes to making one and makes nothing: no link, no test.
        #[cfg(windows)]
        assert!(fs::symlink_metadata(&at).unwrap().file_type().is_symlink());
    };
    // Where older builds and the current one put temporary files.
    link(root.join("c-c.json.tmp"));
    link(root.join(".c-c.json.planted.tmp"));
    // A store opening the folder anew, a minute on, sweeps on its first
    // write.
    age(&root.join(".todokit-swept"), std::time::Duration::from_secs(120));
    let through_temps = JsonFileStore::new(&root).save("c", 1, &state("second", 2)).await;
    // The state file and the lock file themselves.
    link(fixture.path_for("c"));
    let state_link = (
        fixture.load("c").await,
        fixture.save("c", 2, &state("third", 3)).await,
    );
    fs::remove_file(fixture.path_for("c")).unwrap();
    link(root.join("c-d.lock"));
    let lock_link = fixture.save("d", 0, &state("x", 1)).await;
    fn refused<T>(result: &Result<T, StoreError>) -> bool {
        result
            .as_ref()
            .err()
            .is_some_and(|e| e.to_string().contains("never follows links"))
    }
    let actual = (
        through_temps.is_ok(),
        refused(&state_link.0),
        refused(&state_link.1),
        refused(&lock_link),
        fs::read(&victim).unwrap(),
        names_in(&root).contains(".c-c.json.planted.tmp"),
    );
    let expected = (true, true, true, true, b"precious".to_vec(), false);
    assert_eq!(actual, expected);
}

#[cfg(unix)]
#[tokio::test]
async fn what_is_not_a_regular_file_is_refused_by_its_kind_and_never_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("store");
    let fixture = JsonFileStore::new(&root);
    fixture.save("ok", 0, &state("kept", 1)).await.unwrap();
    let piped = std::process::Command::new("mkfifo")
        .arg(fixture.path_for("piped"))
        .status();
    assert!(piped.is_ok_and(|s| s.success()));
    fs::create_dir(fixture.path_for("folder")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(fixture.path_for("sock")).unwrap();
    // A FIFO where the lock goes: opening it to write would wait too.
    let locked = std::process::Command::new("mkfifo")
        .arg(root.join("c-locked.lock"))
        .status();
    assert!(locked.is_ok_and(|s| s.success()));
    let problem = |error: Option<StoreError>| {
        let text = error.map(|e| e.to_string()).unwrap_or_default();
        ["a FIFO (named pipe)", "a socket", "a folder"]
            .into_iter()
            .find(|kind| text.contains(&format!("it is {kind}, and todokit keeps only regular files")))
    };
    let mut listed: Vec<(String, Option<&str>)> = fixture
        .conversations()
        .await
        .unwrap()
        .into_iter()
        .map(|c| (c.id, problem(c.summary.err())))
        .collect();
    listed.sort();
    let actual = (
        listed,
        problem(fixture.load("piped").await.err()),
        problem(fixture.save("piped", 0, &state("x", 1)).await.err()),
        problem(fixture.load("sock").await.err()),
        problem(fixture.save("locked", 0, &state("x", 1)).await.err()),
    );
    let expected = (
        vec![
            ("folder".to_owned(), Some("a folder")),
            ("ok".to_owned(), None),
            ("piped".to_owned(), Some("a FIFO (named pipe)")),
            ("sock".to_owned(), Some("a socket")),
        ],
        Some("a FIFO (named pipe)"),
        Some("a FIFO (named pipe)"),
        Some("a socket"),
        Some("a FIFO (named pipe)"),
    );
    assert_eq!(actual, expected);
}

/// Sets the modification time of `path` to `ago` before now.
fn age(path: &std::path::Path, ago: std::time::Duration) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(std::time::SystemTime::now() - ago).unwrap();
}

#[tokio::test]
async fn a_temporary_file_left_by_a_killed_writer_goes_with_the_first_write_after_a_minute() {
    let dir = tempfile::tempdir().unwrap();
    let stamp = dir.path().join(".todokit-swept");
    let minutes = |n: u64| std::time::Duration::from_secs(60 * n);
    JsonFileStore::new(dir.path())
        .save("c", 0, &state("a", 1))
        .await
        .unwrap();
    fs::write(dir.path().join(".c-c.json.Ab12Cd.tmp"), b"half a list").unwrap();
    fs::write(dir.path().join(".c-other.json.Ab12Cd.tmp"), b"not ours").unwrap();
    // The next process within the minute: no listing, nothing swept.
    JsonFileStore::new(dir.path())
        .save("c", 1, &state("b", 2))
        .await
        .unwrap();
    let within_the_minute = names_in(dir.path()).contains(".c-c.json.Ab12Cd.tmp");
    // A minute on, the next process's first write sweeps its own.
    age(&stamp, minutes(2));
    let fixture = JsonFileStore::new(dir.path());
    fixture.save("c", 2, &state("b", 3)).await.unwrap();
    let after_first_write = names_in(dir.path());
    // A long-lived store looks again every SWEEP_EVERY_SAVES writes; then
    // another conversation's leftover goes too, once it is old.
    fs::write(dir.path().join(".c-c.json.Ef34Gh.tmp"), b"half a list").unwrap();
    age(&dir.path().join(".c-other.json.Ab12Cd.tmp"), minutes(11));
    age(&stamp, minutes(2));
    let mut version = 3;
    for _ in 1..SWEEP_EVERY_SAVES {
        fixture
            .save("c", version, &state("b", version + 1))
            .await
            .unwrap();
        version += 1;
    }
    let left_until_due = names_in(dir.path()).contains(".c-c.json.Ef34Gh.tmp");
    fixture
        .save("c", version, &state("b", version + 1))
        .await
        .unwrap();
    let actual = (
        within_the_minute,
        after_first_write,
        left_until_due,
        names_in(dir.path()),
    );
    let files = |extra: &[&str]| {
        let mut names = BTreeSet::from(["c-c.json".to_owned(), "c-c.lock".to_owned()]);
        names.extend(extra.iter().map(|n| (*n).to_owned()));
        names
    };
    let expected = (true, files(&[".c-other.json.Ab12Cd.tmp"]), true, files(&[]));
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_store_on_the_calling_thread_reads_and_writes_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path()).on_calling_thread();
    fixture.save("conv", 0, &state("a", 1)).await.unwrap();
    let stale = fixture.save("conv", 0, &state("b", 1)).await.is_err();
    let listed: Vec<String> = fixture
        .conversations()
        .await
        .unwrap()
        .into_iter()
        .map(|conversation| conversation.id)
        .collect();
    let actual = (
        fixture.load("conv").await.unwrap(),
        JsonFileStore::new(dir.path()).load("conv").await.unwrap(),
        stale,
        listed,
    );
    let expected = (state("a", 1), state("a", 1), true, vec!["conv".to_owned()]);
    assert_eq!(actual, expected);
}

/// A write skips parsing the file under its lock only when it holds the
/// very bytes the store loaded: any change since, however alike, is read
/// whole and judged as before.
#[tokio::test]
async fn a_write_reads_whole_a_file_changed_since_its_load() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    let path = fixture.path_for("c");
    let file = |state: serde_json::Value, extra: Option<(&str, &str)>| {
        let mut file = serde_json::json!({"format": 1, "conversation": "c", "state": state});
        if let Some((key, value)) = extra {
            file[key] = serde_json::json!(value);
        }
        serde_json::to_vec_pretty(&file).unwrap()
    };
    let good = serde_json::json!({"version": 1, "phases": [{"name": "", "tasks": [{"content": "a"}]}]});
    let unknown = serde_json::json!({"version": 1, "phases": [{"name": "", "tasks": [{"content": "a", "status": "paused"}]}]});
    let newer = serde_json::json!({"version": 2, "phases": [{"name": "", "tasks": [{"content": "b"}]}]});
    let changed = [
        file(unknown, None),
        file(newer, None),
        file(good.clone(), Some(("written_by", "todokit 9"))),
    ];
    let mut actual = Vec::new();
    for bytes in changed {
        fs::write(&path, file(good.clone(), None)).unwrap();
        let loaded = fixture.load("c").await.unwrap().version;
        fs::write(&path, &bytes).unwrap();
        let save = fixture.save("c", loaded, &state("x", loaded + 1)).await;
        let written: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        actual.push((
            match save {
                Ok(()) => "saved".to_owned(),
                Err(StoreError::Corrupt { .. }) => "corrupt".to_owned(),
                Err(StoreError::Conflict { found, .. }) => format!("conflict at {found}"),
                Err(other) => other.to_string(),
            },
            written["state"]["version"].clone(),
            written.get("written_by").cloned(),
        ));
    }
    let expected = vec![
        ("corrupt".to_owned(), serde_json::json!(1), None),
        ("conflict at 2".to_owned(), serde_json::json!(2), None),
        (
            "saved".to_owned(),
            serde_json::json!(2),
            Some(serde_json::json!("todokit 9")),
        ),
    ];
    assert_eq!(actual, expected);
}

/// Two stores on one folder (two processes) each keep their own last file;
/// a commit by one is seen by the other's next write.
#[tokio::test]
async fn a_commit_by_another_store_on_the_folder_is_a_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (JsonFileStore::new(dir.path()), JsonFileStore::new(dir.path()));
    first.save("c", 0, &state("a", 1)).await.unwrap();
    let loaded = (
        first.load("c").await.unwrap().version,
        second.load("c").await.unwrap().version,
    );
    let by_second = second.save("c", loaded.1, &state("b", loaded.1 + 1)).await;
    let by_first = first.save("c", loaded.0, &state("c", loaded.0 + 1)).await;
    let actual = (
        loaded,
        by_second.is_ok(),
        matches!(
            by_first,
            Err(StoreError::Conflict {
                expected: 1,
                found: 2,
                ..
            })
        ),
        first.load("c").await.unwrap(),
    );
    let expected = ((1, 1), true, true, state("b", 2));
    assert_eq!(actual, expected);
}
