//! The catalog: every profile todokit ships.
//!
//! A profile is one module in this folder, declared by a plain `mod` line
//! below (so rustfmt and every other tool reads it), plus its name in the
//! `registry!` list, which adds its `profile` function to [`REGISTRY`].

use todokit_app::prelude::Profile;

pub mod amp;
pub mod augment;
pub mod claude_code;
pub mod claude_tasks;
pub mod cline;
pub mod cline_team;
pub mod codex;
pub mod continue_cli;
pub mod copilot;
pub mod copilot_cli;
#[cfg(feature = "sql")]
pub mod copilot_sql;
pub mod crush;
pub mod cursor;
pub mod deepagents;
pub mod deepagents_js;
pub mod forge;
pub mod gemini;
pub mod gemini_tracker;
pub mod goose;
pub mod hermes;
pub mod kimi;
pub mod kimi_cli;
pub mod learn;
pub mod nexo;
pub mod omp;
pub mod opencode;
pub mod openhands;
pub mod pi;
pub mod qwen;
pub mod roo_code;
pub mod todo_update;
pub mod trae;
pub mod vibe;
pub mod zed;

/// Lists each named module's `profile` function in [`REGISTRY`], in the
/// order given. It declares nothing: a module declared inside a macro is
/// one rustfmt never reads.
macro_rules! registry {
    ($($(#[$only:meta])* $module:ident),+ $(,)?) => {
        /// Every profile, as the function that builds it with its default
        /// rules, in registration order.
        pub const REGISTRY: &[fn() -> Profile] = &[$($(#[$only])* $module::profile),+];

        /// Every profile's name beside the function that builds it, so one
        /// profile is found without building the others.
        const NAMED: &[(&str, fn() -> Profile)] = &[$($(#[$only])* ($module::NAME, $module::profile)),+];
    };
}

// Registration order: the order `todokit profiles` lists them in.
registry! {
    claude_code,
    nexo,
    forge,
    pi,
    learn,
    codex,
    gemini,
    gemini_tracker,
    opencode,
    todo_update,
    claude_tasks,
    roo_code,
    openhands,
    cursor,
    deepagents,
    deepagents_js,
    copilot,
    copilot_cli,
    #[cfg(feature = "sql")]
    copilot_sql,
    kimi,
    kimi_cli,
    omp,
    zed,
    crush,
    qwen,
    vibe,
    hermes,
    goose,
    continue_cli,
    amp,
    augment,
    trae,
    cline,
    cline_team,
}

/// The profile hosts get when they name none.
pub const DEFAULT: &str = claude_code::NAME;

/// Every profile, in registration order.
pub fn all() -> Vec<Profile> {
    REGISTRY.iter().map(|build| build()).collect()
}

/// The profile called `name`, with its default rules (built alone).
pub fn by_name(name: &str) -> Option<Profile> {
    NAMED
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, build)| build())
}

/// The names of every profile, in registration order.
pub fn names() -> Vec<&'static str> {
    NAMED.iter().map(|(name, _)| *name).collect()
}

#[cfg(test)]
mod test_support;

#[cfg(test)]
mod upstream_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{check_every, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;
    use todokit_app::prelude::Pin;
    use todokit_app::schema::{SchemaTarget, anthropic_violations, definition, strict_violations};
    use todokit_domain::TodoState;

    #[test]
    fn names_are_unique_and_the_default_is_registered() {
        let fixture = names();
        // Sorted before `dedup`, which only drops neighbours: a name
        // registered twice apart must still be caught.
        let mut actual = fixture.clone();
        actual.sort_unstable();
        actual.dedup();
        let mut expected = fixture.clone();
        expected.sort_unstable();
        assert_eq!((actual, fixture.contains(&DEFAULT)), (expected, true));
    }

    /// A module declared by its `mod` line but left out of `registry!`
    /// would build and be shipped by no registry: every profile module in
    /// `src/` is one entry of the list.
    #[test]
    fn every_profile_module_is_registered() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut actual: Vec<String> = std::fs::read_dir(&fixture)
            .expect("src/ is readable")
            .filter_map(|entry| {
                let name = entry.expect("a listing entry").file_name().into_string().ok()?;
                let module = name.strip_suffix(".rs").unwrap_or(&name).to_owned();
                (!["lib", "test_support", "mechanism_tests", "upstream_tests"].contains(&module.as_str()))
                    .then_some(module)
            })
            .collect();
        actual.sort_unstable();
        let expected = REGISTRY.len();
        assert_eq!(actual.len(), expected, "profile modules in src/: {actual:?}");
    }

    #[test]
    fn every_profile_pins_its_upstream_in_a_form_a_reviewer_can_check() {
        let fixture = all();
        let full_commit = |commit: &str| commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit());
        let actual: Vec<(&str, bool)> = fixture
            .iter()
            .map(|profile| {
                let pinned = profile.upstream().is_some_and(|upstream| {
                    let pin = match upstream.pin {
                        Pin::Source {
                            repository,
                            path,
                            commit,
                            date,
                            read_through,
                        } => {
                            repository.split('/').count() == 2
                                && !path.is_empty()
                                && full_commit(commit)
                                && date.is_none_or(is_date)
                                && read_through
                                    .is_none_or(|copy| copy.split('/').count() == 2 && copy != repository)
                        }
                        Pin::Capture {
                            repository,
                            path,
                            commit,
                            date,
                        } => {
                            repository.split('/').count() == 2
                                && !path.is_empty()
                                && full_commit(commit)
                                && date.is_none_or(is_date)
                        }
                        Pin::Package {
                            registry,
                            name,
                            version,
                            path,
                            sha256,
                        } => {
                            !registry.is_empty()
                                && !name.is_empty()
                                && !version.is_empty()
                                && !path.is_empty()
                                && sha256.len() == 64
                                && sha256.bytes().all(|b| b.is_ascii_hexdigit())
                        }
                        Pin::DesignNote { title, date } => !title.is_empty() && date.is_none_or(is_date),
                        // A kind of pin this test does not know yet cannot be
                        // checked by it.
                        _ => false,
                    };
                    // A check of this round names what it compared against.
                    let checked = upstream
                        .checked
                        .is_none_or(|c| is_date(c.date) && c.date >= "2026-11-25" && !c.against.is_empty());
                    pin && checked && !upstream.agent.is_empty() && !upstream.ships_in.is_empty()
                });
                (profile.name(), pinned)
            })
            .collect();
        let expected: Vec<(&str, bool)> = fixture.iter().map(|p| (p.name(), true)).collect();
        assert_eq!(actual, expected);
    }

    /// `YYYY-MM-DD`.
    fn is_date(text: &str) -> bool {
        let parts: Vec<&str> = text.split('-').collect();
        parts.len() == 3
            && [4, 2, 2]
                .iter()
                .zip(&parts)
                .all(|(n, p)| p.len() == *n && p.bytes().all(|b| b.is_ascii_digit()))
    }

    #[test]
    fn every_profile_has_an_example_call_that_is_accepted_and_pinned() {
        let fixture = all();
        let mut texts = Vec::new();
        let actual: Vec<(&str, bool, bool)> = fixture
            .iter()
            .map(|profile| {
                let Some(example) = profile.example() else {
                    return (profile.name(), false, false);
                };
                let outcome = run_tool(profile, example.tool, &TodoState::new(), example.arguments);
                texts.push((
                    format!("example__{}__{}", profile.name(), example.tool),
                    outcome.result.content,
                ));
                (profile.name(), !outcome.result.is_error, outcome.commit.is_some())
            })
            .collect();
        snapshot_settings().bind(|| {
            check_every(texts, |name, text| insta::assert_snapshot!(name, text));
        });
        let expected: Vec<(&str, bool, bool)> = fixture.iter().map(|p| (p.name(), true, true)).collect();
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_tool_has_a_snapshotted_schema_in_every_view() {
        let profiles = all();
        let cases = profiles.iter().flat_map(|profile| {
            profile.tools().flat_map(move |tool| {
                SchemaTarget::ALL.into_iter().map(move |target| {
                    let name = format!("schema__{}__{}__{}", profile.name(), tool.name(), target.as_str());
                    (name, definition(tool, target))
                })
            })
        });
        snapshot_settings().bind(|| {
            check_every(cases, |name, schema| insta::assert_json_snapshot!(name, schema));
        });
    }

    /// The hints an MCP client gates calls on, one line per tool: readers
    /// read-only, every writer not, and a writer destructive when it can
    /// take tasks off the list.
    #[test]
    fn every_tool_has_truthful_mcp_annotations() {
        let profiles = all();
        let mut table = String::from("profile tool: readOnly destructive idempotent\n");
        let mut readers = Vec::new();
        for profile in &profiles {
            for tool in profile.tools() {
                let hints = todokit_app::schema::mcp_annotations(tool.metadata());
                let hint = |key: &str| if hints[key] == true { "yes" } else { "no" };
                table.push_str(&format!(
                    "{} {}: {} {} {}\n",
                    profile.name(),
                    tool.name(),
                    hint("readOnlyHint"),
                    hint("destructiveHint"),
                    hint("idempotentHint"),
                ));
                if ["todo_read", "TaskList", "TaskGet"].contains(&tool.name()) {
                    readers.push((profile.name(), tool.name(), hints["readOnlyHint"] == true));
                }
            }
        }
        snapshot_settings().bind(|| insta::assert_snapshot!("mcp_annotations", table));
        let expected: Vec<_> = readers
            .iter()
            .map(|&(profile, tool, _)| (profile, tool, true))
            .collect();
        assert_eq!(readers, expected);
    }

    #[test]
    fn every_tool_has_a_snapshotted_description() {
        let profiles = all();
        let cases = profiles.iter().flat_map(|profile| {
            profile.tools().map(move |tool| {
                let name = format!("description__{}__{}", profile.name(), tool.name());
                (name, tool.description())
            })
        });
        snapshot_settings().bind(|| {
            check_every(cases, |name, text| insta::assert_snapshot!(name, text));
        });
    }

    #[test]
    fn every_profile_has_a_snapshotted_system_prompt() {
        let fixture = all();
        let empty: Vec<&str> = fixture
            .iter()
            .filter(|p| p.system_prompt().trim().is_empty())
            .map(Profile::name)
            .collect();
        let cases = fixture
            .iter()
            .map(|p| (format!("system_prompt__{}", p.name()), p.system_prompt()));
        snapshot_settings().bind(|| {
            check_every(cases, |name, text| insta::assert_snapshot!(name, text));
        });
        assert_eq!(empty, Vec::<&str>::new());
    }

    #[test]
    fn every_tool_has_snapshotted_metadata() {
        let fixture = all();
        let actual: serde_json::Map<String, serde_json::Value> = fixture
            .iter()
            .flat_map(|p| p.tools().map(move |t| (p, t)))
            .map(|(p, t)| {
                let mut facts = serde_json::json!(t.metadata());
                // A command tool's facts per command, beside what holds for all.
                let commands: serde_json::Map<String, serde_json::Value> = t
                    .commands()
                    .into_iter()
                    .map(|(word, meta)| (word.to_owned(), serde_json::json!(meta)))
                    .collect();
                if !commands.is_empty() {
                    facts["commands"] = serde_json::Value::Object(commands);
                }
                (format!("{}/{}", p.name(), t.name()), facts)
            })
            .collect();
        snapshot_settings().bind(|| insta::assert_json_snapshot!("metadata__every_tool", actual));
    }

    /// Every description inside a schema (not the tool's own markdown
    /// description) in every view, with where it is.
    fn schema_descriptions(value: &serde_json::Value, at: &str, out: &mut Vec<(String, String)>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, inner) in map {
                    match (key.as_str(), inner) {
                        ("description", serde_json::Value::String(text)) => {
                            out.push((at.to_owned(), text.clone()))
                        }
                        _ => schema_descriptions(inner, &format!("{at}/{key}"), out),
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for (i, inner) in items.iter().enumerate() {
                    schema_descriptions(inner, &format!("{at}[{i}]"), out);
                }
            }
            _ => {}
        }
    }

    /// The words in `text` spelled as Rust spells a type (two or more
    /// capitalised parts run together: `TodoWriteInput`).
    fn camel_case_words(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| {
                let humps = word.chars().filter(char::is_ascii_uppercase).count();
                word.starts_with(|c: char| c.is_ascii_uppercase())
                    && humps >= 2
                    && word.chars().any(|c| c.is_ascii_lowercase())
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn each_registered_name_is_its_profiles_own() {
        let actual: Vec<&str> = all().iter().map(Profile::name).collect();
        let expected = names();
        assert_eq!(actual, expected);
        assert!(
            names()
                .iter()
                .all(|name| by_name(name).is_some_and(|p| p.name() == *name))
        );
    }

    #[test]
    fn no_schema_description_speaks_rust() {
        let mut found = Vec::new();
        for profile in all() {
            for tool in profile.tools() {
                let def = definition(tool, SchemaTarget::Mcp);
                let at = format!("{}/{}", profile.name(), tool.name());
                schema_descriptions(&def["inputSchema"], &at, &mut found);
            }
        }
        // A tool's own name is a word the model knows.
        let tools: Vec<String> = all()
            .iter()
            .flat_map(|p| p.tools().map(|t| t.name().to_owned()).collect::<Vec<_>>())
            .collect();
        let rust = |text: &str| {
            ["[`", "`]", "::", "Option<", "Vec<", "&str", "Self"]
                .iter()
                .any(|mark| text.contains(mark))
                || camel_case_words(text).iter().any(|word| !tools.contains(word))
        };
        let actual: Vec<(String, String)> = found.into_iter().filter(|(_, text)| rust(text)).collect();
        let expected: Vec<(String, String)> = Vec::new();
        assert_eq!(actual, expected);
    }

    #[test]
    fn no_schema_description_carries_a_line_break() {
        let mut found = Vec::new();
        for profile in all() {
            for tool in profile.tools() {
                for target in SchemaTarget::ALL {
                    let def = definition(tool, target);
                    let schema = ["schema", "input_schema", "inputSchema", "parameters"]
                        .iter()
                        .find_map(|k| def.get(*k).or_else(|| def.get("function")?.get(*k)));
                    let at = format!("{}/{}/{}", profile.name(), tool.name(), target.as_str());
                    schema_descriptions(schema.unwrap_or(&serde_json::Value::Null), &at, &mut found);
                }
            }
        }
        let actual: Vec<(String, String)> = found
            .into_iter()
            .filter(|(_, text)| text.contains('\n'))
            .collect();
        let expected: Vec<(String, String)> = Vec::new();
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_strict_schema_meets_the_strict_rules() {
        let fixture = all();
        let actual: Vec<(String, Vec<String>)> = fixture
            .iter()
            .flat_map(|p| p.tools().map(move |t| (p, t)))
            .map(|(p, t)| {
                let def = definition(t, SchemaTarget::OpenAiStrict);
                (
                    format!("{}/{}", p.name(), t.name()),
                    strict_violations(&def["function"]["parameters"]),
                )
            })
            .collect();
        let expected: Vec<(String, Vec<String>)> =
            actual.iter().map(|(n, _)| (n.clone(), Vec::new())).collect();
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_anthropic_schema_meets_the_anthropic_rules() {
        let fixture = all();
        let actual: Vec<(String, Vec<String>)> = fixture
            .iter()
            .flat_map(|p| p.tools().map(move |t| (p, t)))
            .map(|(p, t)| {
                let def = definition(t, SchemaTarget::Anthropic);
                (
                    format!("{}/{}", p.name(), t.name()),
                    anthropic_violations(&def["input_schema"]),
                )
            })
            .collect();
        let expected: Vec<(String, Vec<String>)> =
            actual.iter().map(|(n, _)| (n.clone(), Vec::new())).collect();
        assert_eq!(actual, expected);
    }
}

#[cfg(test)]
mod mechanism_tests;
