//! `todokit setup AGENT`: writes what an agent needs to plan with todokit
//! and only todokit, in the agent's own configuration files (the MCP
//! entry, the agent's own todo tools off, todokit's tools allowed), and
//! takes it back out with `--remove`. `docs/agents.md` lists each key.

mod agents;
pub mod command;
mod document;
mod plan;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use super::output::print_line;
use super::{Context, UsageError, client_conversation};
use crate::exit::ExitCode;

use command::Launcher;

/// `todokit setup`'s own options.
#[derive(Debug, clap::Args)]
pub struct SetupArgs {
    /// The agent (see --list)
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(agents::ids()), required_unless_present = "list")]
    pub agent: Option<String>,
    /// List the agents, the profile each gets and the files setup writes
    #[arg(long, conflicts_with_all = ["global", "dry_run", "remove", "force", "command"])]
    pub list: bool,
    /// Write the user's configuration instead of this project's
    #[arg(long)]
    pub global: bool,
    /// Print the change as a diff; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Take out what setup wrote
    #[arg(long)]
    pub remove: bool,
    /// Replace (or with --remove, remove) a `todokit` entry that is not the one setup writes
    #[arg(long)]
    pub force: bool,
    /// How the agent starts todokit [default: this todokit's absolute path, or npx/uvx when it runs from their cache]
    #[arg(long, value_enum)]
    pub command: Option<Launcher>,
}

/// Runs `todokit setup`; `profile` is `--profile` when given.
pub fn run(ctx: &Context, args: SetupArgs, profile: Option<&str>) -> Result<ExitCode> {
    if args.list {
        print_line(&list())?;
        return Ok(ExitCode::SUCCESS);
    }
    let id = args.agent.as_deref().unwrap_or_default();
    let agent =
        agents::find(id).ok_or_else(|| UsageError(format!("no agent {id:?}; see todokit setup --list")))?;
    if !args.global && !agent.project_scope {
        return Err(UsageError(format!(
            "{} reads MCP servers only from your own configuration: run `todokit setup {} --global`",
            agent.name, agent.id
        ))
        .into());
    }
    let project = std::env::current_dir().context("cannot tell the current folder")?;
    let home = home().ok_or_else(|| UsageError("cannot tell your home folder (HOME is unset)".into()))?;
    let profile_name = profile.unwrap_or(agent.profile);
    let profile = todokit::profiles::by_name(profile_name)
        .ok_or_else(|| UsageError(format!("no profile {profile_name:?}; see todokit profiles")))?;
    let conversation = match (&ctx.conversation, args.global) {
        (Some(id), _) => Some(id.clone()),
        (None, false) => {
            let name = folder_name(&project)?;
            client_conversation("the project folder's name", &name)
                .map_err(|e| UsageError(format!("{e}; name the conversation with --conversation")))?;
            Some(name)
        }
        // One entry for every project: the server names the conversation
        // after the folder the agent starts it in.
        (None, true) => None,
    };
    let mut command = command::launch_command(args.command).map_err(UsageError)?;
    if let Some(store) = ctx.store {
        command.extend(["--store".to_owned(), store_argument(store)?]);
    }
    command.extend(["--profile".to_owned(), profile_name.to_owned()]);
    match &conversation {
        Some(id) => command.extend(["--conversation".to_owned(), id.clone(), "mcp".to_owned()]),
        None => command.extend(["mcp".to_owned(), "--conversation-from-folder".to_owned()]),
    }
    let inputs = agents::inputs::Inputs {
        global: args.global,
        project: project.clone(),
        home,
        command,
        tools: profile.tool_names().into_iter().map(str::to_owned).collect(),
        system: agents::inputs::System::current(),
        environment: std::env::vars_os()
            .filter_map(|(name, value)| Some((name.into_string().ok()?, value)))
            .collect(),
    };
    let files = agent.plan(&inputs);
    let outcomes = plan::compute(&files, args.remove, args.force)?;
    let shown = |path: &Path| shown_path(path, &project, &inputs.home);
    if args.dry_run {
        let diff = plan::diff(&outcomes, shown);
        // Through print_line: a reader that closes the pipe early
        // (`| head`) is no error.
        print_line(match diff.strip_suffix('\n') {
            _ if diff.is_empty() => "Nothing to change.",
            Some(text) => text,
            None => &diff,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    plan::write(&outcomes)?;
    let mut out = Vec::new();
    if args.remove {
        out.push(format!(
            "todokit setup {}: todokit taken out of {}'s configuration.",
            agent.id, agent.name
        ));
    } else {
        let whose = match &conversation {
            Some(id) => format!("the conversation {id:?}"),
            None => "a conversation named after each project's folder".to_owned(),
        };
        out.push(format!(
            "todokit setup {}: {} plans with todokit's {} profile ({}), on {whose}.",
            agent.id,
            agent.name,
            profile_name,
            inputs.tools.join(", ")
        ));
    }
    for outcome in &outcomes {
        let verb = match (&outcome.before, &outcome.after, outcome.changes()) {
            (_, _, false) => "unchanged",
            (None, Some(_), true) => "created",
            (Some(_), None, true) => "removed",
            _ => "changed",
        };
        out.push(format!("  {verb:<9} {}", shown(&outcome.path)));
        out.extend(outcome.notes.iter().map(|note| format!("            {note}")));
    }
    if !args.remove
        && let Some(trust) = agent.trust(&inputs)
    {
        out.push(trust);
    }
    print_line(&out.join("\n"))?;
    Ok(ExitCode::SUCCESS)
}

/// The `--list` table.
fn list() -> String {
    let mut rows = vec![[
        "AGENT".to_owned(),
        "PROFILE".to_owned(),
        "PROJECT FILES".to_owned(),
        "WITH --global".to_owned(),
    ]];
    for agent in agents::AGENTS {
        rows.push([
            format!("{} ({})", agent.id, agent.name),
            agent.profile.to_owned(),
            agent.files[0].to_owned(),
            agent.files[1].to_owned(),
        ]);
    }
    let widths: Vec<usize> = (0..4)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect();
            cells.join("  ").trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn home() -> Option<PathBuf> {
    let variable = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(variable)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

fn folder_name(project: &Path) -> Result<String, UsageError> {
    project
        .file_name()
        .and_then(|name| name.to_str())
        .map(str::to_owned)
        .ok_or_else(|| {
            UsageError(
                "this folder has no name to call the conversation by; name it with --conversation".into(),
            )
        })
}

/// `--store` as the agent should see it: a folder made absolute (the agent
/// starts todokit elsewhere), a database URL or `memory:` as given.
fn store_argument(store: &Path) -> Result<String> {
    if todokit::StoreLocation::parse(store).folder().is_none() {
        return Ok(store.to_string_lossy().into_owned());
    }
    let absolute =
        std::path::absolute(store).with_context(|| format!("cannot make {} absolute", store.display()))?;
    Ok(absolute.to_string_lossy().into_owned())
}

/// `path` relative to the project when inside it, else from `~` when in
/// the home folder.
fn shown_path(path: &Path, project: &Path, home: &Path) -> String {
    if let Ok(inside) = path.strip_prefix(project) {
        return inside.display().to_string();
    }
    path.strip_prefix(home)
        .map_or_else(|_| path.display().to_string(), |p| format!("~/{}", p.display()))
}
