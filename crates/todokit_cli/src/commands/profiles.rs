//! `todokit profiles`: every profile with its tools and the upstream
//! version it reproduces, for people, as the markdown table
//! `docs/dialects.md` carries, or as JSON.

use crate::exit::ExitCode;

use anyhow::Result;
use clap::ValueEnum;
use serde_json::json;
use todokit::Profile;
use todokit::profiles;

use super::UsageError;
use super::output::{print_json, print_line};
use super::registry::{Verdict, check, package_of};

/// How `profiles` prints the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfilesFormat {
    /// Aligned columns: name, tools, pinned upstream version, when it was last checked, summary
    Text,
    /// The markdown table of docs/dialects.md
    Markdown,
    /// An array of objects with name, summary, tools and upstream
    Json,
}

/// Prints every profile in registration order; with `check_upstream`,
/// what npm or PyPI says of the package each was read from.
pub fn run(format: ProfilesFormat, check_upstream: bool) -> Result<ExitCode> {
    let all = profiles::all();
    let verdicts: Vec<Option<Verdict>> = match check_upstream {
        false => vec![None; all.len()],
        true if format == ProfilesFormat::Markdown => {
            return Err(UsageError(
                "--check-upstream answers in text or json; the markdown table is docs/dialects.md's".into(),
            )
            .into());
        }
        true => {
            let checked = check(all.iter().filter_map(package_of));
            all.iter()
                .map(|p| {
                    Some(match package_of(p) {
                        Some(package) => checked.get(&package).cloned().unwrap_or_default(),
                        None => "not read from a package".to_owned(),
                    })
                })
                .collect()
        }
    };
    match format {
        ProfilesFormat::Text => print_text(&all, &verdicts)?,
        ProfilesFormat::Markdown => print_line(&markdown_table(&all))?,
        ProfilesFormat::Json => print_json(&json!(
            all.iter()
                .zip(&verdicts)
                .map(|(p, verdict)| {
                    let mut entry = json!({
                        "name": p.name(),
                        "summary": p.summary(),
                        "tools": p.tool_names(),
                        "upstream": p.upstream(),
                        "retired_upstream_in": p.retired(),
                    });
                    if let (Some(verdict), Some(fields)) = (verdict, entry.as_object_mut()) {
                        fields.insert("newest_upstream".into(), json!(verdict));
                    }
                    entry
                })
                .collect::<Vec<_>>()
        ))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// When `profile`'s pin was last compared with its upstream, or a plain
/// statement that it was not.
fn checked(profile: &Profile) -> String {
    match profile.upstream().and_then(|u| u.checked) {
        Some(checked) => format!("checked {checked}"),
        None => "not checked".to_owned(),
    }
}

/// The profile's summary, and when its agent no longer ships the tool,
/// where it was read without it.
fn summary(profile: &Profile) -> String {
    match profile.retired() {
        Some(release) => format!("{} (retired upstream in {release})", profile.summary()),
        None => profile.summary().to_owned(),
    }
}

/// The pinned version of `profile`, or a plain statement that it has none.
fn version(profile: &Profile) -> String {
    profile
        .upstream()
        .map(|u| u.version())
        .unwrap_or_else(|| "no upstream pinned".to_owned())
}

fn print_text(all: &[Profile], verdicts: &[Option<Verdict>]) -> Result<()> {
    let rows: Vec<[String; 5]> = all
        .iter()
        .zip(verdicts)
        .map(|(p, verdict)| {
            let checked = match verdict {
                Some(verdict) => format!("{}; {verdict}", checked(p)),
                None => checked(p),
            };
            [
                p.name().to_owned(),
                p.tool_names().join(", "),
                version(p),
                checked,
                summary(p),
            ]
        })
        .collect();
    let width = |column: usize| rows.iter().map(|r| r[column].chars().count()).max().unwrap_or(0);
    let (w0, w1, w2, w3) = (width(0), width(1), width(2), width(3));
    for [name, tools, version, checked, summary] in &rows {
        print_line(&format!(
            "{name:<w0$}  {tools:<w1$}  {version:<w2$}  {checked:<w3$}  {summary}"
        ))?;
    }
    Ok(())
}

/// One row per profile: name, agent, tools, the source read (repository,
/// file, commit and date; a capture; a package; or the design note), when
/// it was last checked against what, and who ships the tool.
fn markdown_table(all: &[Profile]) -> String {
    let mut out = String::from(
        "| profile | agent | tools | pinned upstream | checked | ships in |\n|---|---|---|---|---|---|\n",
    );
    for profile in all {
        let tools: Vec<String> = profile.tool_names().iter().map(|t| format!("`{t}`")).collect();
        let (agent, pin, ships_in) = match profile.upstream() {
            Some(upstream) => {
                let pin = upstream.pin.to_string();
                (upstream.agent, pin, upstream.ships_in)
            }
            None => ("", "none".to_owned(), ""),
        };
        let checked = match profile.upstream().and_then(|u| u.checked) {
            Some(c) => format!("{} against `{}`", c.date, c.against),
            None => "not checked".to_owned(),
        };
        let retired = profile
            .retired()
            .map(|release| format!("; retired upstream in {release}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "| `{}` | {agent} | {} | {pin} | {checked} | {ships_in}{retired} |\n",
            profile.name(),
            tools.join(", ")
        ));
    }
    out.pop();
    out
}
