//! `todokit conversations` on a real store folder: newest change first,
//! counts, hostile ids made inert, and JSON objects with an `id`.

use std::path::Path;
use std::process::Output;

use pretty_assertions::assert_eq;
use serde_json::Value;

/// `todokit args` on `store`, its output.
fn todokit(store: &Path, args: &[&str]) -> Output {
    crate::support::cli::run(crate::support::cli::todokit(store).args(args))
}

fn write(store: &Path, conversation: &str, todos: &str) {
    let args = format!(r#"{{"todos":{todos}}}"#);
    let out = todokit(
        store,
        &["--conversation", conversation, "call", "TodoWrite", &args],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Apart in time, so the order is the order of the writes.
    std::thread::sleep(std::time::Duration::from_millis(20));
}

#[test]
fn conversations_are_listed_newest_change_first_as_text_and_as_json() {
    let store = tempfile::tempdir().unwrap();
    let empty = todokit(store.path(), &["conversations"]);
    // All completed: claude-code clears the list, so it counts 0/0.
    write(
        store.path(),
        "first",
        r#"[{"content":"a","status":"completed","activeForm":"A"}]"#,
    );
    write(
        store.path(),
        "red\u{1b}[31m",
        r#"[{"content":"b","status":"in_progress","activeForm":"Doing b"},{"content":"c","status":"pending","activeForm":"C"}]"#,
    );
    let text = String::from_utf8_lossy(&todokit(store.path(), &["conversations"]).stdout).into_owned();
    let json: Value =
        serde_json::from_slice(&todokit(store.path(), &["conversations", "--format", "json"]).stdout)
            .expect("JSON on stdout");
    let columns: Vec<Vec<String>> = text
        .lines()
        .map(|line| {
            line.split("  ")
                .filter(|c| !c.is_empty())
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect();
    let ids: Vec<Value> = json
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| c["id"].clone())
        .collect();
    let actual = (
        String::from_utf8_lossy(&empty.stdout).into_owned(),
        columns
            .iter()
            .map(|c| (c[0].clone(), c[1].clone(), c.last().cloned()))
            .collect::<Vec<_>>(),
        text.contains('\u{1b}'),
        columns.iter().all(|c| c[2].ends_with(" UTC")),
        ids,
        json[0]["in_progress"].clone(),
    );
    let expected = (
        "No conversations.\n".to_owned(),
        vec![
            (
                "red\u{241b}[31m".to_owned(),
                "2/2 open".to_owned(),
                Some("now: Doing b".to_owned()),
            ),
            (
                "first".to_owned(),
                "0/0 open".to_owned(),
                Some(columns[1][2].clone()),
            ),
        ],
        false,
        true,
        vec![Value::from("red\u{1b}[31m"), Value::from("first")],
        Value::from("Doing b"),
    );
    assert_eq!(actual, expected, "{text}");
}

#[test]
fn reading_a_conversation_the_store_lacks_names_the_closest_ones_on_stderr() {
    let store = tempfile::tempdir().unwrap();
    write(
        store.path(),
        "release",
        r#"[{"content":"a","status":"pending","activeForm":"A"}]"#,
    );
    let mistyped = todokit(store.path(), &["--conversation", "relase", "show"]);
    let known = todokit(store.path(), &["--conversation", "release", "show"]);
    let actual = (
        mistyped.status.success(),
        String::from_utf8_lossy(&mistyped.stderr).into_owned(),
        String::from_utf8_lossy(&known.stderr).into_owned(),
    );
    let expected = (
        true,
        "todokit: no conversation \"relase\" in this store; the closest: \"release\" \
         (`todokit conversations` lists them all)\n"
            .to_owned(),
        String::new(),
    );
    assert_eq!(actual, expected);
}

/// Lines of standard output and standard error, and whether it exited 0.
fn said(out: &Output) -> (bool, String, String) {
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `forget` and `prune` on the store `store` names (a folder or a
/// database), on conversations under the namespaces `a` and `b`; `age`
/// makes a stored conversation look unchanged for two days. What each
/// command said, then the ids left under `a/` and `b/`.
fn forget_and_prune(
    store: &Path,
    a: &str,
    b: &str,
    age: &dyn Fn(&str),
    save_record: &dyn Fn(&str),
) -> (Vec<(bool, String, String)>, Vec<String>) {
    let todo = r#"[{"content":"a","status":"pending","activeForm":"A"}]"#;
    for id in ["old", "kept", "gone"] {
        write(store, &format!("{a}/{id}"), todo);
    }
    write(store, &format!("{b}/old"), todo);
    save_record(&format!("{a}/old"));
    for id in [format!("{a}/old"), format!("{b}/old")] {
        age(&id);
    }
    let (a_ns, b_ns) = (a.to_owned(), b.to_owned());
    let runs: Vec<Vec<String>> = vec![
        vec!["forget".into(), format!("{a}/gone"), format!("{a}/never")],
        vec![
            "forget".into(),
            "--format".into(),
            "json".into(),
            format!("{a}/gone"),
        ],
        vec![
            "prune".into(),
            "--idle".into(),
            "1d".into(),
            "--namespace".into(),
            a_ns.clone(),
            "--dry-run".into(),
            "--format".into(),
            "json".into(),
        ],
        vec![
            "prune".into(),
            "--idle".into(),
            "1d".into(),
            "--namespace".into(),
            a_ns,
        ],
        vec![
            "prune".into(),
            "--idle".into(),
            "36h".into(),
            "--namespace".into(),
            b_ns,
        ],
        vec!["prune".into(), "--idle".into(), "0d".into()],
        vec![
            "prune".into(),
            "--idle".into(),
            "1d".into(),
            "--namespace".into(),
            "a/b".into(),
        ],
        vec!["forget".into()],
    ];
    let said: Vec<(bool, String, String)> = runs
        .iter()
        .map(|args| {
            said(&todokit(
                store,
                &args.iter().map(String::as_str).collect::<Vec<_>>(),
            ))
        })
        .collect();
    let listed: Value =
        serde_json::from_slice(&todokit(store, &["conversations", "--format", "json"]).stdout).expect("JSON");
    let mut left: Vec<String> = listed
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["id"].as_str().map(str::to_owned))
        .filter(|id| id.starts_with(&format!("{a}/")) || id.starts_with(&format!("{b}/")))
        .collect();
    left.sort();
    (said, left)
}

/// What [`forget_and_prune`] must see, for namespaces `a` and `b`.
fn forgotten_and_pruned(a: &str, b: &str) -> (Vec<(bool, String, String)>, Vec<String>) {
    let refused = |stderr: &str| (false, String::new(), stderr.to_owned());
    (
        vec![
            (
                true,
                format!("forgot {a}/gone\n{a}/never: nothing was stored\n"),
                String::new(),
            ),
            (
                true,
                format!("[\n  {{\n    \"id\": \"{a}/gone\",\n    \"forgotten\": false\n  }}\n]\n"),
                String::new(),
            ),
            (
                true,
                format!(
                    "{{\n  \"dry_run\": true,\n  \"conversations\": [\n    \"{a}/old\"\n  ],\n  \"failed\": []\n}}\n"
                ),
                String::new(),
            ),
            (true, format!("{a}/old\nforgot 1 conversation\n"), String::new()),
            (true, format!("{b}/old\nforgot 1 conversation\n"), String::new()),
            refused(
                "error: invalid value '0d' for '--idle <DURATION>': \"0d\": a duration must be more than zero (30d, 12h, ...)\n\nFor more information, try '--help'.\n",
            ),
            refused(
                "todokit: --namespace \"a/b\": a namespace is a tenant's, 1 to 32 of a-z, 0-9, `_` and `-`\n",
            ),
            refused(
                "error: the following required arguments were not provided:\n  <ID>...\n\nUsage: todokit forget <ID>...\n\nFor more information, try '--help'.\n",
            ),
        ],
        vec![format!("{a}/kept")],
    )
}

#[test]
fn forget_and_prune_remove_conversations_whole_from_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let files = todokit::JsonFileStore::new(&store);
    let age = |id: &str| crate::support::cli::two_days_back(&files.path_for(id));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let save_record = |id: &str| {
        use todokit::ConversationContext;
        let record = todokit::turn_key(id);
        runtime
            .block_on(files.save(&record, 0, &todokit::TodoState::new().version(1u64)))
            .expect("saved");
        crate::support::cli::two_days_back(&files.path_for(&record));
    };
    let actual = forget_and_prune(&store, "acme", "initech", &age, &save_record);
    let mut names: Vec<String> = std::fs::read_dir(&store)
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .collect();
    names.sort();
    let kept = files.path_for("acme/kept");
    let kept = kept.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    assert_eq!(actual, forgotten_and_pruned("acme", "initech"));
    assert_eq!(names, vec![format!("{kept}.json"), format!("{kept}.lock")]);
    // What a user reads, for review.
    let shown: Vec<String> = actual
        .0
        .iter()
        .map(|(ok, stdout, stderr)| format!("exit ok: {ok}\n--- stdout\n{stdout}--- stderr\n{stderr}"))
        .collect();
    crate::support::cli::snapshot_settings()
        .bind(|| insta::assert_snapshot!("forget_and_prune_output", shown.join("\n")));
}

#[cfg(feature = "postgres")]
#[test]
fn forget_and_prune_remove_conversations_whole_from_a_database() {
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
    // Namespaces of this run's own: the database outlives it.
    let (a, b) = (
        format!("forget{}a", std::process::id()),
        format!("forget{}b", std::process::id()),
    );
    let age = |id: &str| crate::support::cli::two_days_back_in(&url, id);
    let save_record = |id: &str| {
        let record = todokit::turn_key(id).replace('\u{1}', "' || chr(1) || '");
        let sql = format!(
            "INSERT INTO todokit_conversations (conversation, version, state, updated_at) \
             VALUES ('{record}', 1, '{{}}'::jsonb, now() - interval '2 days')"
        );
        assert!(crate::support::cli::psql(&url, &sql), "a turn record made");
    };
    let actual = forget_and_prune(Path::new(&url), &a, &b, &age, &save_record);
    let rows = format!(
        "SELECT count(*) = 1 FROM todokit_conversations WHERE conversation LIKE '{a}/%' OR conversation LIKE '{b}/%' \
         HAVING bool_and(conversation = '{a}/kept')"
    );
    let only_kept = crate::support::cli::psql(
        &url,
        &format!("DO $$ BEGIN IF NOT ({rows}) THEN RAISE 'rows left'; END IF; END $$"),
    );
    assert_eq!(actual, forgotten_and_pruned(&a, &b));
    assert!(only_kept, "nothing but {a}/kept is left in the table");
}

#[test]
fn the_help_of_what_an_operator_runs() {
    let store = tempfile::tempdir().unwrap();
    let help = |command: &str| {
        let output =
            crate::support::cli::run(crate::support::cli::todokit(store.path()).args([command, "--help"]));
        crate::support::cli::stdout(&output)
    };
    let (serve, forget, prune) = (help("serve"), help("forget"), help("prune"));
    crate::support::cli::snapshot_settings().bind(|| {
        insta::assert_snapshot!("cli__serve_help", serve);
        insta::assert_snapshot!("cli__forget_help", forget);
        insta::assert_snapshot!("cli__prune_help", prune);
    });
}
