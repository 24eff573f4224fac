//! `todokit forget` and `todokit prune`: conversations removed from the
//! store for good, one by one or every one left idle; and the durations
//! `prune --idle` and `serve --retain` take.

use std::time::Duration;

use anyhow::Result;
use serde_json::json;
use todokit::domain::clip;
use todokit::infra::render::sanitize;
use todokit::infra::store::{MAX_NAMESPACE_BYTES, NAMESPACE_SEPARATOR, is_namespace};

use super::ListFormat;
use crate::commands::output::{eprint_inert, print_json, print_line};
use crate::commands::{Context, UsageError, client_conversation};
use crate::exit::ExitCode;

/// The units a duration may be written in, with their length in seconds.
const UNITS: [(char, u64); 5] = [('s', 1), ('m', 60), ('h', 3_600), ('d', 86_400), ('w', 604_800)];

/// A duration as `prune --idle` and `serve --retain` take it: numbers each
/// followed by a unit (`s`, `m`, `h`, `d`, `w`), such as `30d` or `1d12h`;
/// more than zero.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let usage = || format!("{text:?} is not a duration like 90s, 15m, 12h, 30d, 2w or 1d12h");
    let mut seconds: u64 = 0;
    let mut number: Option<u64> = None;
    for c in text.trim().chars() {
        if let Some(digit) = c.to_digit(10) {
            let grown = number
                .unwrap_or(0)
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(digit)))
                .ok_or_else(usage)?;
            number = Some(grown);
            continue;
        }
        let (_, unit) = UNITS.iter().find(|(name, _)| *name == c).ok_or_else(usage)?;
        let count = number.take().ok_or_else(usage)?;
        seconds = count
            .checked_mul(*unit)
            .and_then(|part| seconds.checked_add(part))
            .ok_or_else(usage)?;
    }
    if number.is_some() || seconds == 0 {
        return Err(match seconds {
            0 if number.is_none() => format!("{text:?}: a duration must be more than zero (30d, 12h, ...)"),
            _ => usage(),
        });
    }
    Ok(Duration::from_secs(seconds))
}

/// Forgets each of `ids`: its list and its turn record. Says which had
/// nothing stored; the exit status is 0 either way (the conversation is
/// gone). Every id is checked before any is forgotten.
pub async fn forget(ctx: &Context<'_>, ids: &[String], format: ListFormat) -> Result<ExitCode> {
    for id in ids {
        client_conversation("todokit forget's ID", id)?;
    }
    let service = ctx.service().await?;
    let mut outcomes = Vec::new();
    for id in ids {
        outcomes.push((id, service.forget(id).await?));
    }
    match format {
        ListFormat::Json => print_json(&json!(
            outcomes
                .iter()
                .map(|(id, forgotten)| json!({"id": id, "forgotten": forgotten}))
                .collect::<Vec<_>>()
        ))?,
        ListFormat::Text => {
            for (id, forgotten) in &outcomes {
                let clipped = clip(id);
                let id = sanitize(&clipped);
                match forgotten {
                    true => print_line(&format!("forgot {id}"))?,
                    false => print_line(&format!("{id}: nothing was stored"))?,
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `todokit prune` was asked.
pub struct Prune<'a> {
    /// How long a conversation must have gone unchanged.
    pub idle: Duration,
    /// Only this namespace's conversations (`NS/...`).
    pub namespace: Option<&'a str>,
    /// Name them, remove nothing.
    pub dry_run: bool,
    /// How to print them.
    pub format: ListFormat,
}

/// Forgets every conversation (of the namespace, when one is named) left
/// unchanged for the idle time, and names them. One that cannot be
/// forgotten is said on standard error and the rest still go; the exit
/// status is then 1.
pub async fn prune(ctx: &Context<'_>, asked: Prune<'_>) -> Result<ExitCode> {
    let prefix = match asked.namespace {
        None => String::new(),
        Some(namespace) if !is_namespace(namespace) => {
            return Err(UsageError(format!(
                "--namespace {:?}: a namespace is a tenant's, 1 to {MAX_NAMESPACE_BYTES} of a-z, 0-9, `_` and `-`",
                clip(namespace)
            ))
            .into());
        }
        Some(namespace) => format!("{namespace}{NAMESPACE_SEPARATOR}"),
    };
    let service = ctx.service().await?;
    let pruned = service.prune(&prefix, asked.idle, asked.dry_run).await?;
    match asked.format {
        ListFormat::Json => print_json(&json!({
            "dry_run": asked.dry_run,
            "conversations": pruned.forgotten,
            "failed": pruned
                .failed
                .iter()
                .map(|(id, error)| json!({"id": id, "error": error.to_string()}))
                .collect::<Vec<_>>(),
        }))?,
        ListFormat::Text => {
            for id in &pruned.forgotten {
                print_line(&sanitize(id))?;
            }
            let verb = if asked.dry_run { "would forget" } else { "forgot" };
            let noun = if pruned.forgotten.len() == 1 {
                "conversation"
            } else {
                "conversations"
            };
            print_line(&format!("{verb} {} {noun}", pruned.forgotten.len()))?;
        }
    }
    for (id, error) in &pruned.failed {
        eprint_inert(&format!("todokit: could not forget {}: {error}", clip(id)));
    }
    if !pruned.failed.is_empty() {
        let noun = if pruned.failed.len() == 1 { "one" } else { "each" };
        eprint_inert(&format!(
            "todokit: {} conversation{} could not be forgotten ({noun} named above); the others were",
            pruned.failed.len(),
            if pruned.failed.len() == 1 { "" } else { "s" }
        ));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn durations_are_numbers_with_units_and_anything_else_is_refused() {
        let cases = [
            "30d",
            "1d12h",
            "90s",
            "2w",
            " 15m ",
            "0d",
            "",
            "30",
            "d",
            "1.5h",
            "3y",
            "99999999999999999999s",
        ];
        let actual: Vec<Result<u64, bool>> = cases
            .iter()
            .map(|text| {
                parse_duration(text)
                    .map(|d| d.as_secs())
                    .map_err(|e| e.contains("more than zero"))
            })
            .collect();
        let expected = vec![
            Ok(2_592_000),
            Ok(129_600),
            Ok(90),
            Ok(1_209_600),
            Ok(900),
            Err(true),
            Err(true),
            Err(false),
            Err(false),
            Err(false),
            Err(false),
            Err(false),
        ];
        assert_eq!(actual, expected);
    }
}
