//! [`EditRequest`]: a hand edit as a host sends it by words (the board's
//! JSON, a language binding's dict), read into a [`UserAction`] in one
//! place so every surface refuses the same way.

use serde::Deserialize;

use super::user_edit::UserAction;

/// A hand edit by its action's word: `append` (with `items` and, on a
/// profile with phases, `phase`), `start`, `done`, `drop`, `rm`, `claim`
/// (with `owner`) or `release`, each but `append` naming its task.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, derive_setters::Setters)]
#[serde(deny_unknown_fields)]
#[setters(strip_option, into)]
#[non_exhaustive]
pub struct EditRequest {
    /// The action's word.
    pub action: String,
    /// The task (or, for `done`, `drop` and `rm`, the phase), matched as
    /// the command matches names.
    #[serde(default)]
    pub name: Option<String>,
    /// For `append`: the tasks to add.
    #[serde(default)]
    pub items: Vec<String>,
    /// For `append` on a profile with phases: the phase.
    #[serde(default)]
    pub phase: Option<String>,
    /// For `claim`: who takes the task.
    #[serde(default)]
    pub owner: Option<String>,
}

impl EditRequest {
    /// Every action's word.
    pub const ACTIONS: [&'static str; 7] = ["append", "start", "done", "drop", "rm", "claim", "release"];

    /// A request for `action`.
    pub fn new(action: impl Into<String>) -> Self {
        Self {
            action: action.into(),
            ..Self::default()
        }
    }

    /// The user action, when `allowed` (a subset of [`EditRequest::ACTIONS`])
    /// has its word and it says all that action needs; else what is wrong,
    /// naming the field (`owner: …`).
    pub fn into_action(self, allowed: &[&str]) -> Result<UserAction, String> {
        if !allowed.contains(&self.action.as_str()) {
            let words: Vec<String> = allowed.iter().map(|w| format!("`{w}`")).collect();
            return Err(format!(
                "action: got {:?}; allowed: {}",
                self.action,
                words.join(", ")
            ));
        }
        if self.action == "append" {
            if self.items.is_empty() {
                return Err("items: `append` needs at least one task".to_owned());
            }
            return Ok(UserAction::Append {
                phase: self.phase,
                items: self.items,
            });
        }
        let Some(name) = self.name else {
            return Err(format!("name: `{}` needs the task's name", self.action));
        };
        Ok(match self.action.as_str() {
            "start" => UserAction::Start(name),
            "done" => UserAction::Done(name),
            "drop" => UserAction::Drop(name),
            "rm" => UserAction::Rm(name),
            "claim" => match self.owner.filter(|o| !o.trim().is_empty()) {
                Some(owner) => UserAction::Assign {
                    task: name,
                    owner: Some(owner),
                },
                None => return Err("owner: `claim` needs the name of who takes the task".to_owned()),
            },
            "release" => UserAction::Assign {
                task: name,
                owner: None,
            },
            other => {
                let words: Vec<String> = Self::ACTIONS.iter().map(|w| format!("`{w}`")).collect();
                return Err(format!("action: got {other:?}; allowed: {}", words.join(", ")));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn each_word_is_read_into_its_action_and_what_is_missing_is_named() {
        let all = &EditRequest::ACTIONS;
        let fixture = [
            EditRequest::new("append").items(vec!["a".to_owned()]).phase("P"),
            EditRequest::new("done").name("a"),
            EditRequest::new("claim").name("a").owner("ann"),
            EditRequest::new("release").name("a"),
            EditRequest::new("append"),
            EditRequest::new("rm"),
            EditRequest::new("claim").name("a").owner(" "),
            EditRequest::new("explode").name("a"),
        ];
        let actual: Vec<Result<UserAction, String>> =
            fixture.into_iter().map(|r| r.into_action(all)).collect();
        let expected = vec![
            Ok(UserAction::Append {
                phase: Some("P".to_owned()),
                items: vec!["a".to_owned()],
            }),
            Ok(UserAction::Done("a".to_owned())),
            Ok(UserAction::Assign {
                task: "a".to_owned(),
                owner: Some("ann".to_owned()),
            }),
            Ok(UserAction::Assign {
                task: "a".to_owned(),
                owner: None,
            }),
            Err("items: `append` needs at least one task".to_owned()),
            Err("name: `rm` needs the task's name".to_owned()),
            Err("owner: `claim` needs the name of who takes the task".to_owned()),
            Err("action: got \"explode\"; allowed: `append`, `start`, `done`, `drop`, `rm`, `claim`, `release`".to_owned()),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_word_outside_those_allowed_is_refused_with_the_allowed_ones() {
        let actual = EditRequest::new("rm").name("a").into_action(&["start", "done"]);
        let expected = Err("action: got \"rm\"; allowed: `start`, `done`".to_owned());
        assert_eq!(actual, expected);
    }
}
