//! A profile: one agent's family of todo tools over the shared state, with
//! the rules its lists are held to.

use std::sync::Arc;

use todokit_domain::ListRules;

use crate::Tool;

/// One tool family (`claude-code`, `forge`, ...): its tools and its rules.
///
/// Hosts get a profile from [`crate::profiles::by_name`] and may change its
/// rules with [`Profile::with_rules`] before handing it to the service.
#[derive(Clone)]
pub struct Profile {
    name: &'static str,
    summary: &'static str,
    rules: ListRules,
    tools: Vec<Arc<dyn Tool>>,
}

impl Profile {
    /// A profile with no tools yet.
    pub fn new(name: &'static str, summary: &'static str, rules: ListRules) -> Self {
        Self {
            name,
            summary,
            rules,
            tools: Vec::new(),
        }
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: impl Tool + 'static) -> Self {
        self.tools.push(Arc::new(tool));
        self
    }

    /// Replaces the rules (limits, in-progress policy) its lists are held to.
    pub fn with_rules(mut self, rules: ListRules) -> Self {
        self.rules = rules;
        self
    }

    /// The name hosts and the CLI select it by.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// One line on which agent's tools it mirrors.
    pub fn summary(&self) -> &'static str {
        self.summary
    }

    /// The rules its lists are held to.
    pub fn rules(&self) -> &ListRules {
        &self.rules
    }

    /// Its tools, in the order they are offered to the model.
    pub fn tools(&self) -> impl Iterator<Item = &dyn Tool> {
        self.tools.iter().map(|t| t.as_ref())
    }

    /// The tool called `name`, if the profile has it.
    pub fn find(&self, name: &str) -> Option<&dyn Tool> {
        self.tools().find(|t| t.name() == name)
    }

    /// The names of its tools.
    pub fn tool_names(&self) -> Vec<&'static str> {
        self.tools().map(|t| t.name()).collect()
    }
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profile")
            .field("name", &self.name)
            .field("rules", &self.rules)
            .field("tools", &self.tool_names())
            .finish()
    }
}
