//! The repository's own rules, checked on every `make test`.

use pretty_assertions::assert_eq;
use todokit_repo_checks::crate_graph::{
    arrows_not_pointing_down, from_manifests, from_picture, mutual_dependencies,
};
use todokit_repo_checks::dialect_api::past_the_prelude;
use todokit_repo_checks::formatting::{MAX_FILE_LINES, rust_files, too_long, unformatted};
use todokit_repo_checks::manifests::disagreements;
use todokit_repo_checks::module_graph::{read_crate, through_the_root};
use todokit_repo_checks::public_api::public_items;
use todokit_repo_checks::shared_build::{differences, features_by_crate, tree};
use todokit_repo_checks::snapshots::{StaleHeader, stale_headers};
use todokit_repo_checks::test_layout::support_modules;
use todokit_repo_checks::workspace_root;

/// Every crate's root files (library and binary).
fn crate_roots() -> Vec<std::path::PathBuf> {
    let crates = workspace_root().join("crates");
    let mut roots = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&crates)
        .expect("the crates folder is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        for root in ["src/lib.rs", "src/main.rs"] {
            if dir.join(root).is_file() {
                roots.push(dir.join(root));
            }
        }
    }
    roots
}

#[test]
fn no_crate_has_a_module_cycle() {
    let roots = crate_roots();
    let actual: Vec<(String, Vec<String>)> = roots
        .iter()
        .flat_map(|root| {
            let graph = read_crate(root).unwrap_or_else(|e| panic!("{e}"));
            let name = root
                .strip_prefix(workspace_root())
                .unwrap_or(root)
                .display()
                .to_string();
            graph
                .cycles()
                .into_iter()
                .map(move |members| (name.clone(), graph.edges_within(&members)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(actual, Vec::<(String, Vec<String>)>::new());
    // The check must have read something: at least the five crates.
    assert!(roots.len() >= 5, "found crate roots: {roots:?}");
}

#[test]
fn no_module_takes_a_name_through_its_crate_roots_re_exports() {
    let actual: Vec<(String, Vec<String>)> = crate_roots()
        .iter()
        .map(|root| {
            let name = root
                .strip_prefix(workspace_root())
                .unwrap_or(root)
                .display()
                .to_string();
            (name, through_the_root(root).unwrap_or_else(|e| panic!("{e}")))
        })
        .filter(|(_, found)| !found.is_empty())
        .collect();
    assert_eq!(actual, Vec::<(String, Vec<String>)>::new());
}

#[test]
fn every_rust_file_is_under_rustfmt_found_by_path() {
    let root = workspace_root();
    let files = rust_files(&root, &["crates", "fuzz"]).unwrap_or_else(|e| panic!("{e}"));
    assert!(files.len() > 100, "only {} Rust files found", files.len());
    let actual = unformatted(&root, &files).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        actual,
        Vec::<String>::new(),
        "`rustfmt --edition 2024 <file>` formats each"
    );
}

#[test]
fn no_rust_file_is_longer_than_the_guide_allows() {
    let root = workspace_root();
    let files = rust_files(&root, &["crates", "fuzz"]).unwrap_or_else(|e| panic!("{e}"));
    let actual = too_long(&root, &files).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        actual,
        Vec::<(String, usize)>::new(),
        "files over {MAX_FILE_LINES} lines"
    );
}

#[test]
fn every_committed_snapshot_names_its_source() {
    let root = workspace_root();
    let actual = stale_headers(&root.join("snapshots"), &root).expect("snapshots/ is readable");
    assert_eq!(actual, Vec::<StaleHeader>::new());
}

#[test]
fn the_dialects_reach_the_mechanisms_through_the_prelude_only() {
    let dir = workspace_root().join("crates/todokit_dialects/src");
    let actual = past_the_prelude(&dir, "todokit_app").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(actual, Vec::<String>::new());
}

#[test]
fn the_architecture_picture_is_the_workspaces_crate_graph() {
    let root = workspace_root();
    let doc =
        std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md is readable");
    let actual = from_picture(&doc).expect("docs/architecture.md has a crates:begin/crates:end picture");
    let expected = from_manifests(&root.join("crates")).expect("the manifests are readable");
    assert_eq!(
        actual, expected,
        "docs/architecture.md's picture and the workspace's crates differ"
    );
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let graph = from_manifests(&workspace_root().join("crates")).expect("the manifests are readable");
    let actual = arrows_not_pointing_down(&graph);
    assert_eq!(
        actual,
        Vec::<(String, String)>::new(),
        "arrows that do not point down (crate_graph::LAYERS)"
    );
}

#[test]
fn no_two_crates_depend_on_each_other_even_in_their_tests() {
    let actual = mutual_dependencies(&workspace_root().join("crates")).expect("the manifests are readable");
    assert_eq!(actual, Vec::<(String, String)>::new());
}

#[test]
fn every_manifest_takes_one_version_and_one_home_from_the_workspace() {
    let actual = disagreements(&workspace_root()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(actual, Vec::<String>::new());
}

#[test]
fn the_readmes_references_to_other_documents_are_working_links() {
    let root = workspace_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_else(|e| panic!("{e}"));
    let actual = todokit_repo_checks::doc_links::problems(&readme, &root);
    assert_eq!(actual, Vec::<String>::new());
}

#[test]
fn the_python_module_and_the_npm_addon_resolve_their_shared_dependencies_alike() {
    let root = workspace_root();
    let read = |package: &str| features_by_crate(&tree(&root, package).unwrap_or_else(|e| panic!("{e}")));
    let python = read("todokit_python");
    let node = read("todokit_node");
    let actual = differences(("todokit_python", &python), ("todokit_node", &node));
    assert_eq!(
        actual,
        Vec::<String>::new(),
        "each needs the other's features in todokit_binding's manifest, or the second build compiles these again"
    );
    // The check must have compared something: the command's whole tree.
    let shared = python.keys().filter(|p| node.contains_key(*p)).count();
    assert!(shared > 150, "only {shared} crates in both trees");
}

/// The facade's and the MCP server's public items against
/// `docs/public-api/<crate>.txt`: a change to what a semver release must
/// keep shows in review. `TODOKIT_PUBLIC_API=write` writes the lists anew
/// (`make public-api`).
#[test]
fn the_public_items_are_the_committed_lists() {
    let mut differ = Vec::new();
    for name in ["todokit", "todokit_mcp"] {
        let root = workspace_root().join("crates").join(name).join("src/lib.rs");
        let listed = public_items(&root, name).unwrap_or_else(|e| panic!("{e}"));
        let text = listed.join("\n") + "\n";
        let committed = workspace_root()
            .join("docs/public-api")
            .join(format!("{name}.txt"));
        if std::env::var("TODOKIT_PUBLIC_API").as_deref() == Ok("write") {
            std::fs::create_dir_all(committed.parent().expect("a folder")).expect("docs/public-api");
            std::fs::write(&committed, &text).expect("the list");
            continue;
        }
        let before = std::fs::read_to_string(&committed).unwrap_or_default();
        if before != text {
            differ.push((name, text));
        }
    }
    let names: Vec<&str> = differ.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        Vec::<&str>::new(),
        "the public items differ from docs/public-api/; review them, then `make public-api`:\n{}",
        differ.iter().map(|(_, text)| text.as_str()).collect::<String>()
    );
}

/// The guide's "one test-support module per crate": at most one
/// `test_support` among a crate's sources and one `support` among its
/// integration tests.
#[test]
fn every_crate_keeps_its_shared_test_helpers_in_one_module_of_each_kind() {
    let crates = workspace_root().join("crates");
    let mut names: Vec<_> = std::fs::read_dir(&crates)
        .expect("the crates folder is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    names.sort();
    let actual: Vec<(String, usize, usize)> = names
        .iter()
        .map(|dir| {
            let (unit, integration) = support_modules(dir).expect("readable");
            let name = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
            (name, unit.len(), integration.len())
        })
        .filter(|(_, unit, integration)| *unit > 1 || *integration > 1)
        .collect();
    assert_eq!(actual, Vec::<(String, usize, usize)>::new());
    // The check must have read something: the CLI's integration tests
    // keep their helpers in `tests/all/support`.
    let (unit, integration) = support_modules(&crates.join("todokit_cli")).expect("readable");
    assert_eq!((unit.len(), integration.len()), (0, 1));
}
