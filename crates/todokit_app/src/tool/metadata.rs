//! Facts about a tool that a host needs to schedule and gate it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::mode::{HostMode, ModeSet};

/// Facts about a tool that a host needs to schedule and gate it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ToolMetadata {
    /// It never touches the workspace (files, processes, network), so a host
    /// may allow it in plan mode (unless [`ToolMetadata::refused_in`] says
    /// the original refuses it there).
    pub read_only_workspace: bool,
    /// It does not change the list either.
    pub read_only: bool,
    /// It can take tasks off the list (a whole-list replace, a removal),
    /// so a call may lose work a user or another agent put there. Always
    /// false for a reader.
    pub destructive: bool,
    /// Sending the same arguments twice leaves the same state.
    pub idempotent: bool,
    /// Only one call of it runs at a time per conversation; the service
    /// queues the others.
    pub exclusive: bool,
    /// Subagents a host spawns get it too. List tools belong to the agent
    /// that plans; shared task lists are meant for the whole team.
    pub inherited_by_subagents: bool,
    /// The host modes in which the original refuses every call of it (in
    /// its own words), as Codex refuses `update_plan` in Plan mode; a host
    /// may leave it out of the model's tools there. Empty for most tools.
    pub refused_in: ModeSet,
}

impl ToolMetadata {
    /// A tool that rewrites the list and nothing else: usable in plan mode,
    /// and the same arguments twice give the same list. Rewriting can drop
    /// tasks; a writer that only adds or changes says
    /// [`ToolMetadata::destructive`]`(false)`.
    pub const LIST_WRITER: ToolMetadata = ToolMetadata {
        read_only_workspace: true,
        read_only: false,
        destructive: true,
        idempotent: true,
        exclusive: true,
        inherited_by_subagents: false,
        refused_in: ModeSet::EMPTY,
    };

    /// A tool that only reads the list.
    pub const LIST_READER: ToolMetadata = ToolMetadata {
        read_only_workspace: true,
        read_only: true,
        destructive: false,
        idempotent: true,
        exclusive: false,
        inherited_by_subagents: false,
        refused_in: ModeSet::EMPTY,
    };

    /// The same facts, saying whether subagents get the tool.
    pub const fn inherited(mut self, inherited: bool) -> Self {
        self.inherited_by_subagents = inherited;
        self
    }

    /// The same facts, with `mode` among the modes the tool refuses.
    pub const fn refused_in(mut self, mode: HostMode) -> Self {
        self.refused_in = self.refused_in.with(mode);
        self
    }

    /// The same facts, saying whether the same call twice is a no-op.
    pub const fn idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = idempotent;
        self
    }

    /// The same facts, saying whether it can take tasks off the list.
    pub const fn destructive(mut self, destructive: bool) -> Self {
        self.destructive = destructive;
        self
    }

    /// What holds for a tool that runs as `self` or as `other` by its
    /// arguments: read-only only when both are, exclusive when either is.
    pub const fn either(self, other: ToolMetadata) -> Self {
        Self {
            read_only_workspace: self.read_only_workspace && other.read_only_workspace,
            read_only: self.read_only && other.read_only,
            destructive: self.destructive || other.destructive,
            idempotent: self.idempotent && other.idempotent,
            exclusive: self.exclusive || other.exclusive,
            inherited_by_subagents: self.inherited_by_subagents || other.inherited_by_subagents,
            refused_in: self.refused_in.union(other.refused_in),
        }
    }
}
