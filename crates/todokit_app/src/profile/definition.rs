//! [`Profile`]: what a profile is and how it is built (its tools, rules,
//! leniency, lifecycle, prompt and example).

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use todokit_domain::{ListRules, Timestamp, TodoState, auto_clear, auto_clear_due, next_auto_clear};

use super::lifecycle::Lifecycle;
use super::upstream::Upstream;
use crate::arguments::{ARRAY_SLACK, CompiledSchema, ITEM_TEXT_BYTES, Leniency, SizeLimits};
use crate::tool::Tool;

/// The default number of tool rounds without a todo call before a host nags
/// the model to update its list.
pub const DEFAULT_NAG_AFTER_ROUNDS: usize = 10;

/// The nag most profiles use: the list is not repeated.
pub const DEFAULT_NAG_TEXT: &str = "You have not updated your todo list for a while. If you finished an item, \
                                    mark it completed now; if you started one, mark it in_progress.";

fn default_nag(_list: &TodoState) -> String {
    DEFAULT_NAG_TEXT.to_owned()
}

/// A tool with its canonical schema, compiled for the decoding layer on
/// first use (once, shared by the profile's clones): generating a schema
/// is the costliest part of building a profile, and a process that runs
/// one call of one tool should not pay it for every tool of every profile.
#[derive(Clone)]
pub(super) struct Registered {
    pub(super) tool: Arc<dyn Tool>,
    schema: Arc<OnceLock<CompiledSchema>>,
}

impl Registered {
    pub(super) fn schema(&self) -> &CompiledSchema {
        self.schema
            .get_or_init(|| CompiledSchema::new(&self.tool.input_schema()))
    }
}

/// One tool family (`claude-code`, `forge`, ...): its tools, its rules and
/// the slips it accepts.
///
/// Hosts get a profile from the dialects' `by_name` (`todokit::profiles`) and may change its
/// rules with [`Profile::with_rules`] before handing it to the service.
#[derive(Clone)]
pub struct Profile {
    name: &'static str,
    summary: &'static str,
    rules: ListRules,
    leniency: Leniency,
    nag_after_rounds: usize,
    lifecycle: Lifecycle,
    system_prompt: &'static str,
    example: Option<ExampleCall>,
    upstream: Option<Upstream>,
    retired: Option<&'static str>,
    once_per_round: Vec<(&'static str, &'static str)>,
    nag: fn(&TodoState) -> String,
    compaction: Option<fn(&TodoState) -> Option<String>>,
    context: Option<fn(&TodoState) -> String>,
    shows_ids: bool,
    phased: bool,
    /// The top-level fields that hold a whole list as one text, and the
    /// most bytes that text may have (see [`Profile::with_list_text`]).
    list_texts: Vec<&'static str>,
    list_text_bytes: Option<usize>,
    tools: Vec<Registered>,
}

/// A call a model could make with a profile's tools: shown in docs and run
/// by the tests that go over every profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExampleCall {
    /// The tool.
    pub tool: &'static str,
    /// Its arguments, as a model would send them.
    pub arguments: &'static str,
}

impl Profile {
    /// A profile with no tools yet, the standard leniency and the default
    /// nag threshold.
    pub fn new(name: &'static str, summary: &'static str, rules: ListRules) -> Self {
        Self {
            name,
            summary,
            rules,
            leniency: Leniency::STANDARD,
            nag_after_rounds: DEFAULT_NAG_AFTER_ROUNDS,
            lifecycle: Lifecycle::default(),
            system_prompt: "",
            example: None,
            upstream: None,
            retired: None,
            once_per_round: Vec::new(),
            nag: default_nag,
            compaction: None,
            context: None,
            shows_ids: false,
            phased: false,
            list_texts: Vec::new(),
            list_text_bytes: None,
            tools: Vec::new(),
        }
    }

    /// Declares `field` (a top-level argument) as a whole list written as
    /// one text, as Goose's `content` or Roo Code's `todos` are. Such a
    /// text may be as long as `max_bytes` (the original's limit, in UTF-8
    /// bytes) when given, else the item count times the item text limit;
    /// any other text of a call is an item's (see `docs/limits.md`).
    pub fn with_list_text(mut self, field: &'static str, max_bytes: Option<usize>) -> Self {
        self.list_texts.push(field);
        self.list_text_bytes = max_bytes.or(self.list_text_bytes);
        self
    }

    /// The caps every call of this profile is measured against before its
    /// tool runs: above the profile's own limits, so the tool still refuses
    /// in its own words what its original refuses.
    pub fn size_limits(&self) -> SizeLimits {
        let limits = &self.rules.limits;
        let item = ITEM_TEXT_BYTES
            .max(limits.max_content_bytes)
            .max(limits.max_active_form_bytes)
            .max(limits.max_description_bytes)
            .max(limits.max_id_bytes);
        let items = limits.max_items.max(1);
        SizeLimits {
            item_text_bytes: item,
            list_text_bytes: self
                .list_text_bytes
                .unwrap_or_else(|| items.saturating_mul(item))
                .max(item),
            list_text_fields: self.list_texts.clone(),
            array_items: items.saturating_mul(ARRAY_SLACK),
            task_text_bytes: limits.max_content_bytes,
        }
    }

    /// States the upstream tool this profile reproduces and the version of
    /// it that was read.
    pub fn with_upstream(mut self, upstream: Upstream) -> Self {
        self.upstream = Some(upstream);
        self
    }

    /// The upstream tool this profile reproduces (every registered profile
    /// states one).
    pub fn upstream(&self) -> Option<&Upstream> {
        self.upstream.as_ref()
    }

    /// Marks the tool as gone from what its agent ships now: `release` is
    /// the agent and version read without it ("Cline's CLI 3.0.65"). The
    /// profile keeps working for hosts that still send the tool; listings
    /// say "retired upstream in RELEASE".
    pub fn retired_upstream(mut self, release: &'static str) -> Self {
        self.retired = Some(release);
        self
    }

    /// The release read without this profile's tool, when its agent no
    /// longer ships it (see [`Profile::retired_upstream`]).
    pub fn retired(&self) -> Option<&'static str> {
        self.retired
    }

    /// Words the nag (the reminder after rounds without a todo call) as
    /// this dialect's agent does, from the list as it stands.
    pub fn with_nag_text(mut self, nag: fn(&TodoState) -> String) -> Self {
        self.nag = nag;
        self
    }

    /// How this profile words the nag ([`DEFAULT_NAG_TEXT`] unless it says
    /// otherwise).
    pub fn nag_words(&self) -> fn(&TodoState) -> String {
        self.nag
    }

    /// Words what goes back into a compacted conversation as this
    /// dialect's agent does (`None` when it adds nothing for the list), in
    /// place of [`crate::turn::TurnPolicy::on_compaction`]'s own words.
    pub fn with_compaction_text(mut self, words: fn(&TodoState) -> Option<String>) -> Self {
        self.compaction = Some(words);
        self
    }

    /// How this profile words the list it puts back after a compaction,
    /// when it has its own words.
    pub fn compaction_words(&self) -> Option<fn(&TodoState) -> Option<String>> {
        self.compaction
    }

    /// Puts the list before every request, worded by `words`, as this
    /// dialect's agent does (Goose's "message of importance"); see
    /// [`crate::turn::TurnPolicy::context`].
    pub fn with_context_every_request(mut self, words: fn(&TodoState) -> String) -> Self {
        self.context = Some(words);
        self
    }

    /// How this profile words the list it puts before every request, when
    /// it does.
    pub fn context_words(&self) -> Option<fn(&TodoState) -> String> {
        self.context
    }

    /// Lets tool `tool` be called at most once per round (one model turn):
    /// when a round holds more calls to it, each of them is answered with
    /// `refusal` as an error and none runs, as deepagents does. Applies to
    /// rounds run by [`crate::service::TodoWriteService::call_round`].
    pub fn with_once_per_round(mut self, tool: &'static str, refusal: &'static str) -> Self {
        self.once_per_round.push((tool, refusal));
        self
    }

    /// The refusal for tool `tool` called more than once in one round, when
    /// the profile allows it only once.
    pub fn round_refusal(&self, tool: &str) -> Option<&'static str> {
        self.once_per_round
            .iter()
            .find(|(name, _)| *name == tool)
            .map(|(_, refusal)| *refusal)
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: impl Tool + 'static) -> Self {
        self.tools.push(Registered {
            tool: Arc::new(tool),
            schema: Arc::default(),
        });
        self
    }

    /// Replaces the rules (limits, in-progress policy) its lists are held to.
    pub fn with_rules(mut self, rules: ListRules) -> Self {
        self.rules = rules;
        self
    }

    /// Sets which slips in the arguments it accepts.
    pub fn with_leniency(mut self, leniency: Leniency) -> Self {
        self.leniency = leniency;
        self
    }

    /// Sets after how many tool rounds without a todo call a host should
    /// remind the model of its list.
    pub fn with_nag_after_rounds(mut self, rounds: usize) -> Self {
        self.nag_after_rounds = rounds;
        self
    }

    /// Sets the system-prompt snippet a host adds to tell the model how to
    /// work with the list.
    pub fn with_system_prompt(mut self, snippet: &'static str) -> Self {
        self.system_prompt = snippet;
        self
    }

    /// Says that its agent shows each task's id (`#3`) to people, as
    /// Claude Code's task list does; views of the list then show it too.
    pub fn with_ids_shown(mut self) -> Self {
        self.shows_ids = true;
        self
    }

    /// Whether views of its lists show each task's id.
    pub fn shows_ids(&self) -> bool {
        self.shows_ids
    }

    /// Says that its tools group tasks into named phases. Hand edits then
    /// append to a phase; on a flat profile they append to the one list and
    /// never make phases its tools could not show.
    pub fn with_phases(mut self) -> Self {
        self.phased = true;
        self
    }

    /// Whether its tools group tasks into named phases.
    pub fn has_phases(&self) -> bool {
        self.phased
    }

    /// Sets a typical first call of one of its tools.
    pub fn with_example(mut self, tool: &'static str, arguments: &'static str) -> Self {
        self.example = Some(ExampleCall { tool, arguments });
        self
    }

    /// A typical first call of one of its tools, when it has one.
    pub fn example(&self) -> Option<ExampleCall> {
        self.example
    }

    /// The system-prompt snippet for this profile's tools.
    pub fn system_prompt(&self) -> &'static str {
        self.system_prompt
    }

    /// Sets how finished tasks leave its lists.
    pub fn with_lifecycle(mut self, lifecycle: Lifecycle) -> Self {
        self.lifecycle = lifecycle;
        self
    }

    /// How finished tasks leave its lists.
    pub fn lifecycle(&self) -> &Lifecycle {
        &self.lifecycle
    }

    /// `state` as it stands at `now` under this profile: finished tasks
    /// past their delay are gone. Borrowed when nothing clears with time,
    /// so most profiles pay no copy on every call.
    pub fn settle<'a>(&self, state: &'a TodoState, now: Timestamp) -> Cow<'a, TodoState> {
        match self.lifecycle.clear_finished_after_ms {
            // Copied only when something is due to go.
            Some(delay) if auto_clear_due(state, now, delay) => Cow::Owned(auto_clear(state, now, delay)),
            _ => Cow::Borrowed(state),
        }
    }

    /// When [`Profile::settle`] will next show `state` differently (a
    /// finished task due to clear), so a live view needs no timer before;
    /// `None` when time alone never changes it.
    pub fn settles_next_at(&self, state: &TodoState) -> Option<Timestamp> {
        next_auto_clear(state, self.lifecycle.clear_finished_after_ms?)
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

    /// The slips it accepts.
    pub fn leniency(&self) -> &Leniency {
        &self.leniency
    }

    /// Tool rounds without a todo call before the host should nag.
    pub fn nag_after_rounds(&self) -> usize {
        self.nag_after_rounds
    }

    /// Its tools, in the order they are offered to the model.
    pub fn tools(&self) -> impl Iterator<Item = &dyn Tool> {
        self.tools.iter().map(|r| r.tool.as_ref())
    }

    /// The tool called `name`, if the profile has it.
    pub fn find(&self, name: &str) -> Option<&dyn Tool> {
        self.registered(name).map(|r| r.tool.as_ref())
    }

    /// The names of its tools.
    pub fn tool_names(&self) -> Vec<&'static str> {
        self.tools().map(|t| t.name()).collect()
    }

    pub(super) fn registered(&self, name: &str) -> Option<&Registered> {
        self.tools.iter().find(|r| r.tool.name() == name)
    }
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profile")
            .field("name", &self.name)
            .field("rules", &self.rules)
            .field("leniency", &self.leniency)
            .field("nag_after_rounds", &self.nag_after_rounds)
            .field("lifecycle", &self.lifecycle)
            .field("tools", &self.tool_names())
            .finish()
    }
}
