//! `todokit profiles`: every profile with its tools.

use std::process::ExitCode;

use anyhow::Result;
use todokit::profiles;

use super::output::print_line;

/// Prints one aligned line per profile: name, tools, summary.
pub fn run() -> Result<ExitCode> {
    let all = profiles::all();
    let rows: Vec<(&str, String, &str)> = all
        .iter()
        .map(|p| (p.name(), p.tool_names().join(", "), p.summary()))
        .collect();
    let name_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let tools_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (name, tools, summary) in rows {
        print_line(&format!("{name:<name_width$}  {tools:<tools_width$}  {summary}"))?;
    }
    Ok(ExitCode::SUCCESS)
}
