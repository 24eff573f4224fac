//! Each profile against what its agent ships: the fixtures in
//! `fixtures/upstream/` hold, for a profile, the input schema of each of
//! the agent's own tools as its pinned CLI sends them to a model, and the
//! answers of example calls (read by the todokit CLI's `agents::upstream`
//! tests, which `make upstream` runs to write them). Here, with no agent
//! and no download, the profile's tools are compared with them fact by
//! fact ([`shape`]) and the example calls are made again through the
//! profile. Every difference must be a row of docs/leniency.md's
//! "Differences from the shipped packages", and every row must still be a
//! difference: a change on either side shows.

mod shape;

use std::collections::BTreeSet;
use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::Value;

use todokit_app::prelude::Profile;
use todokit_app::schema::{SchemaTarget, definitions};

use crate::test_support::run_session;

/// One difference: profile, tool, place, kind, upstream's, todokit's.
type Difference = [String; 6];

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates live two levels below the workspace root")
}

fn fixtures() -> Vec<Value> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/upstream");
    let mut paths: Vec<_> = std::fs::read_dir(&folder)
        .expect("the upstream fixtures")
        .map(|entry| entry.expect("a fixture").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| serde_json::from_str(&std::fs::read_to_string(path).expect("a fixture")).expect("JSON"))
        .collect()
}

/// The profiles only a build with a feature has, and whether this one has
/// it: their fixtures are compared only then (`make unit` builds every
/// feature).
const FEATURED: [(&str, bool); 1] = [("copilot-sql", cfg!(feature = "sql"))];

/// Every difference between `fixture` and its profile.
fn compare(fixture: &Value) -> Vec<Difference> {
    let name = fixture["profile"].as_str().expect("the fixture's profile");
    if FEATURED
        .iter()
        .any(|(featured, built)| *featured == name && !built)
    {
        return Vec::new();
    }
    let profile = crate::by_name(name).unwrap_or_else(|| panic!("no profile {name}"));
    if let Some(gone) = fixture.get("retired") {
        return retired(&profile, gone, fixture);
    }
    let ours = definitions(&profile, SchemaTarget::Mcp);
    let ours: Vec<&Value> = ours.as_array().expect("a list").iter().collect();
    let theirs = fixture["tools"].as_array().expect("the fixture's tools");
    let row = |tool: &str, place: &str, kind: &str, upstream: &str, todokit: &str| {
        [name, tool, place, kind, upstream, todokit].map(str::to_owned)
    };
    let mut found = Vec::new();
    let names = |tools: &mut dyn Iterator<Item = &str>| tools.map(str::to_owned).collect::<BTreeSet<_>>();
    let their_names = names(&mut theirs.iter().filter_map(|t| t["name"].as_str()));
    let our_names = names(&mut ours.iter().filter_map(|t| t["name"].as_str()));
    if their_names != our_names {
        let list = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(", ");
        found.push(row(
            "(all)",
            "(tools)",
            "names",
            &list(&their_names),
            &list(&our_names),
        ));
    }
    for tool in theirs {
        let tool_name = tool["name"].as_str().expect("a tool's name");
        let Some(our) = ours.iter().find(|t| t["name"] == tool["name"]) else {
            continue;
        };
        let differences = shape::differences(
            &shape::facts(&tool["input_schema"]),
            &shape::facts(&our["inputSchema"]),
        );
        found.extend(
            differences
                .into_iter()
                .map(|(place, kind, upstream, todokit)| row(tool_name, &place, &kind, &upstream, &todokit)),
        );
    }
    let calls = fixture["calls"].as_array().expect("the fixture's calls");
    let made: Vec<(String, String)> = calls
        .iter()
        .map(|c| {
            (
                c["tool"].as_str().expect("a tool").to_owned(),
                c["arguments"].to_string(),
            )
        })
        .collect();
    let made: Vec<(&str, &str)> = made.iter().map(|(t, a)| (t.as_str(), a.as_str())).collect();
    let (_, results) = run_session(&profile, &made);
    for (n, (call, result)) in calls.iter().zip(&results).enumerate() {
        let upstream = call["answer"].as_str().expect("an answer");
        if upstream != result.content {
            let tool = call["tool"].as_str().expect("a tool");
            found.push(row(
                tool,
                &format!("call {}", n + 1),
                "answer",
                "(text)",
                "(text)",
            ));
        }
    }
    found
}

/// A fixture that found the profile's tools gone from its agent's package:
/// the profile must name them and say in which release they went.
fn retired(profile: &Profile, gone: &Value, fixture: &Value) -> Vec<Difference> {
    let version = fixture["packages"][0]["version"]
        .as_str()
        .expect("the package's version");
    let gone: Vec<&str> = gone
        .as_array()
        .expect("the tools gone")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let ours = profile.tool_names();
    let said = profile.retired().unwrap_or("(not marked retired)");
    let row = |kind: &str, upstream: &str, todokit: &str| {
        [profile.name(), "(all)", "(retired)", kind, upstream, todokit].map(str::to_owned)
    };
    let mut found = Vec::new();
    if !said.ends_with(&format!(" {version}")) {
        found.push(row("release", version, said));
    }
    if gone.iter().any(|name| !ours.contains(name)) {
        found.push(row("names", &gone.join(", "), &ours.join(", ")));
    }
    found
}

/// The rows of docs/leniency.md's table of differences from the shipped
/// packages.
fn allowed() -> Vec<Difference> {
    let text = std::fs::read_to_string(workspace().join("docs/leniency.md")).expect("docs/leniency.md");
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Differences from the shipped packages"))
        .expect("docs/leniency.md has a section \"Differences from the shipped packages\"");
    section
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| profile ") && !line.starts_with("|---"))
        .map(|line| {
            let cells: Vec<String> = line
                .trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().trim_matches('`').to_owned())
                .collect();
            assert!(cells.len() >= 7, "a row of 7 cells: {line}");
            [0, 1, 2, 3, 4, 5].map(|i| cells[i].clone())
        })
        .collect()
}

#[test]
fn every_profile_differs_from_its_shipped_package_only_where_leniency_says() {
    let mut found: Vec<Difference> = fixtures().iter().flat_map(compare).collect();
    found.sort();
    let mut allowed = allowed();
    allowed.sort();
    let show = |rows: &[Difference]| {
        rows.iter()
            .map(|r| {
                format!(
                    "| {} | {} | `{}` | {} | `{}` | `{}` |",
                    r[0], r[1], r[2], r[3], r[4], r[5]
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        show(&found),
        show(&allowed),
        "the differences found (left) are not the ones docs/leniency.md lists (right)"
    );
}
