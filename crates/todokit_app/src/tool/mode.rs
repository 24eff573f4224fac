//! The host's mode ([`HostMode`]): what the agent around the tools is
//! doing, so a dialect whose original refuses in a mode (Codex's
//! `update_plan` in Plan mode) can refuse there too.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the host's agent is doing when a call arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HostMode {
    /// Ordinary work: the agent may change the workspace.
    #[default]
    Default,
    /// Plan mode: the agent only researches and proposes a plan, and
    /// changes nothing in the workspace until the user approves it.
    Plan,
}

impl HostMode {
    /// Every mode, in the order [`ModeSet`] lists them.
    pub const ALL: [HostMode; 2] = [HostMode::Default, HostMode::Plan];

    /// The mode's word, as the CLI's `--mode` and MCP's `todokit/mode` take it.
    pub fn as_str(self) -> &'static str {
        match self {
            HostMode::Default => "default",
            HostMode::Plan => "plan",
        }
    }

    /// The mode a word names (`default`, `plan`), if any.
    pub fn from_word(word: &str) -> Option<HostMode> {
        HostMode::ALL.into_iter().find(|mode| mode.as_str() == word)
    }

    const fn bit(self) -> u8 {
        match self {
            HostMode::Default => 1,
            HostMode::Plan => 2,
        }
    }
}

impl std::fmt::Display for HostMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of [`HostMode`]s (the modes a tool refuses), written as a list of
/// their words: `["plan"]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(from = "Vec<HostMode>", into = "Vec<HostMode>")]
#[schemars(with = "Vec<HostMode>")]
pub struct ModeSet(u8);

impl ModeSet {
    /// No mode.
    pub const EMPTY: ModeSet = ModeSet(0);

    /// The set with `mode` added.
    pub const fn with(self, mode: HostMode) -> ModeSet {
        ModeSet(self.0 | mode.bit())
    }

    /// The modes in either set.
    pub const fn union(self, other: ModeSet) -> ModeSet {
        ModeSet(self.0 | other.0)
    }

    /// Whether `mode` is in the set.
    pub const fn contains(self, mode: HostMode) -> bool {
        self.0 & mode.bit() != 0
    }

    /// Whether the set holds no mode.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The modes in the set, in [`HostMode::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = HostMode> {
        HostMode::ALL.into_iter().filter(move |mode| self.contains(*mode))
    }
}

impl From<Vec<HostMode>> for ModeSet {
    fn from(modes: Vec<HostMode>) -> Self {
        modes.into_iter().fold(ModeSet::EMPTY, ModeSet::with)
    }
}

impl From<ModeSet> for Vec<HostMode> {
    fn from(set: ModeSet) -> Self {
        set.iter().collect()
    }
}

/// How a host makes one call: see [`crate::service::TodoWriteService::call_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, derive_setters::Setters)]
#[non_exhaustive]
pub struct CallOptions {
    /// The host's mode when the model made the call.
    pub mode: HostMode,
}

impl CallOptions {
    /// A call in the default mode.
    pub fn new() -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_mode_set_is_written_as_the_list_of_its_words_and_read_back() {
        let fixture = ModeSet::EMPTY.with(HostMode::Plan);
        let written = serde_json::to_value(fixture).ok();
        let read: Option<ModeSet> = written.clone().and_then(|v| serde_json::from_value(v).ok());
        let actual = (
            written,
            read,
            ModeSet::EMPTY.iter().count(),
            HostMode::from_word("plan"),
            HostMode::from_word("Plan"),
        );
        let expected = (
            Some(serde_json::json!(["plan"])),
            Some(fixture),
            0,
            Some(HostMode::Plan),
            None,
        );
        assert_eq!(actual, expected);
    }
}
