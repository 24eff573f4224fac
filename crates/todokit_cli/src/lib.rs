//! The `todokit` command: run tool calls, show and check a conversation's
//! list, print tool schemas, and replay a demo session. Each command is
//! a module of `commands`; `docs/cli.md` is the contract.
//!
//! The library's one entry, [`run`], is the whole command for a process
//! that is the command: the binary's `main`, and the Python and npm
//! packages' `todokit` (the same command linked into their native module,
//! so installing a package gives the command with no second download).

mod commands;
mod exit;
mod inline;
#[cfg(all(test, feature = "serve"))]
mod limits_doc;
mod store;
mod watch;

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum, builder::PossibleValuesParser};
use commands::conversations::ListFormat;
use commands::show::ShowFormat;
use commands::{EXIT_OUTCOME_UNKNOWN, EXIT_USAGE};
use exit::ExitCode;
use todokit::app::UserAction;
use todokit::infra::render::Glyphs;
use todokit::{Format, SchemaTarget, ServiceError, StoreError, StoreLocation, profiles};
#[cfg(feature = "serve")]
use todokit_mcp::http as serve;

/// The heading the options every command takes are listed under, apart
/// from a command's own.
const GLOBAL_OPTIONS: &str = "Global options";

/// The most threads the runtime's blocking pool may have (the file
/// store's work, a standard input that is not a pipe).
const MAX_BLOCKING_THREADS: usize = 4;

/// Said under `setup --help`.
const SETUP_HELP: &str = "--profile picks another profile than the agent's (see --list); --conversation names the list [default: the project folder's name; with --global, each project's folder name]; --store is written into the entry.";

/// Said under the help of the commands that read no conversation.
const NO_STORE: &str = "This command reads no store: --store and --conversation do not apply to it.";

#[derive(Debug, Parser)]
#[command(
    name = "todokit",
    version,
    about = "Todo-list tools for LLM agents, from the command line"
)]
struct Cli {
    /// Where state lives: a folder, memory: (this process only), or a postgres:// URL in builds with the postgres feature [default: the platform data folder + /todokit]
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, env = "TODOKIT_STORE", value_name = "DIR")]
    store: Option<PathBuf>,
    /// Which conversation's list [default: default]
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, env = "TODOKIT_CONVERSATION", value_name = "ID")]
    conversation: Option<String>,
    /// Which tool family
    #[arg(
        long,
        global = true, help_heading = GLOBAL_OPTIONS,
        env = "TODOKIT_PROFILE",
        default_value = profiles::DEFAULT,
        value_parser = PossibleValuesParser::new(profiles::names()),
    )]
    profile: String,
    /// When to colour terminal output (auto: only on a terminal with NO_COLOR unset)
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, value_enum, default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
    /// Status symbols for terminal output: unicode, ascii, or nerd (Nerd Font icons)
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, env = "TODOKIT_GLYPHS", default_value = "unicode")]
    glyphs: Glyphs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    /// Only on a terminal with NO_COLOR unset
    Auto,
    /// Always, also into pipes and files
    Always,
    /// Never
    Never,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run one tool call, exactly as an agent would, and print the result as JSON
    Call {
        /// The tool's name (see `todokit schema`)
        tool: String,
        /// The arguments as JSON; read from standard input when absent or `-`
        json: Option<std::ffi::OsString>,
        /// The host's mode: `plan` answers a tool its original refuses in plan mode (Codex's update_plan) with that refusal
        #[arg(long, value_enum, default_value_t = Mode::Default)]
        mode: Mode,
    },
    /// Show the current list
    Show {
        /// How to show it
        #[arg(long, value_enum, default_value_t = ShowFormat::Ansi)]
        format: ShowFormat,
    },
    /// Print the profile's tool definitions as a JSON array
    #[command(after_help = NO_STORE)]
    Schema {
        /// Whose tool-definition shape to print
        #[arg(long, value_enum, default_value_t = Target::JsonSchema)]
        target: Target,
    },
    /// The end-of-turn check: exit 0 when nothing is open, 3 (printing the reminder) when something is
    Check,
    /// List the profiles, their tools and the upstream version each reproduces
    #[command(after_help = NO_STORE)]
    Profiles {
        /// `text` for people, `markdown` for the table in docs/dialects.md, `json` for programs
        #[arg(long, value_enum, default_value = "text")]
        format: commands::profiles::ProfilesFormat,
        /// Ask npm and PyPI for the newest version of each profile's package and say where it is newer
        /// than the one read (the one command that goes to the network)
        #[arg(long)]
        check_upstream: bool,
    },
    /// List every conversation in the store, most recently changed first
    Conversations {
        /// `text` for people (open/total, last change, what is in progress); `json`: an array of objects, each with an `id`
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Remove conversations for good: each one's list and what the agent loop kept beside it
    Forget {
        /// The conversations
        #[arg(required = true, value_name = "ID")]
        ids: Vec<String>,
        /// `text`: one line each; `json`: an array of `{id, forgotten}`
        #[arg(long, value_enum, default_value = "text", hide_possible_values = true)]
        format: ListFormat,
    },
    /// Forget every conversation left unchanged for a while (and print their ids)
    Prune {
        /// How long unchanged: numbers with units s, m, h, d, w (30d, 1d12h)
        #[arg(long, value_name = "DURATION", value_parser = commands::conversations::lifecycle::parse_duration)]
        idle: std::time::Duration,
        /// Only this tenant's conversations (`NAMESPACE/...`)
        #[arg(long, value_name = "NAMESPACE")]
        namespace: Option<String>,
        /// Print what would be forgotten; forget nothing
        #[arg(long)]
        dry_run: bool,
        /// `text`: one id a line and a count; `json`: `{dry_run, conversations}`
        #[arg(long, value_enum, default_value = "text", hide_possible_values = true)]
        format: ListFormat,
    },
    /// Replay a scripted agent session (claude-code's TodoWrite), showing the list as it changes
    Demo {
        /// Pause between steps [default: 700 on a terminal, 0 otherwise]
        #[arg(long, value_name = "MS")]
        delay_ms: Option<u64>,
    },
    /// Write the list as markdown (`# phase`, `- [ ] task`, `  > note`)
    Export {
        /// Where to write; standard output when absent
        file: Option<PathBuf>,
    },
    /// Replace the list from a markdown file (a hand edit the model is told about)
    Import {
        /// The markdown file
        file: PathBuf,
    },
    /// Edit the list as markdown in $VISUAL or $EDITOR
    Edit,
    /// Add tasks: `append ITEM...` on a flat profile, `append PHASE ITEM...` on pi (the phase is made when missing)
    Append {
        /// On pi, the phase (matched ignoring case), then the tasks; elsewhere, the tasks
        #[arg(required = true, value_name = "[PHASE] ITEM")]
        words: Vec<String>,
    },
    /// Start a task (names match ignoring case, whole or in part; an ambiguous name is refused)
    Start {
        /// The task
        name: String,
    },
    /// Complete a task, or every task of a phase
    Done {
        /// The task or phase
        name: String,
    },
    /// Abandon a task, or every task of a phase
    Drop {
        /// The task or phase
        name: String,
    },
    /// Remove a task, or empty a phase
    Rm {
        /// The task or phase
        name: String,
    },
    /// Print, then clear, the reminders waiting for the model (the user's hand edits)
    Reminders,
    /// Show the list live, redrawn whenever it changes (one line per change when not on a terminal)
    Watch {
        /// Follow whichever conversation changed last, instead of --conversation
        #[arg(long)]
        latest: bool,
        /// Also check this often, for file systems without change notifications
        #[arg(long, value_name = "MS", default_value_t = 1000)]
        interval_ms: u64,
    },
    /// Set an agent up to plan with todokit: its MCP entry, its own todo tools off, todokit's allowed
    #[command(after_help = SETUP_HELP)]
    Setup(commands::setup::SetupArgs),
    /// Serve the profile's tools over MCP on stdio, with the same store
    Mcp {
        /// Name the conversation after the folder the server starts in (the agent's project), when --conversation names none
        #[arg(long = "conversation-from-folder")]
        conversation_from_folder: bool,
        /// Also put each call's details (the lists before and after, the transitions) in its result as structuredContent, for a host that reads them; the model reads the profile's text either way
        #[arg(long = "structured-content")]
        structured_content: bool,
    },
    /// A live web board of every conversation in the store (JSON API and Server-Sent Events too)
    #[cfg(feature = "serve")]
    Serve {
        /// Where to listen; anything but a loopback address needs --token
        #[arg(long, value_name = "ADDR:PORT", default_value = serve::DEFAULT_BIND)]
        bind: String,
        /// The secret every request must carry (Authorization: Bearer, or the sign-in link's cookie); enables edits from the board
        #[arg(long, env = "TODOKIT_SERVE_TOKEN", value_name = "TOKEN")]
        token: Option<String>,
        /// Tenants: a file of `TOKEN NAMESPACE` lines; each token sees and changes only its namespace's conversations (re-read on SIGHUP)
        #[arg(long = "token-file", value_name = "FILE")]
        token_file: Option<std::path::PathBuf>,
        /// Also answer requests addressed to this name (a proxy's: NAME for any port, NAME:PORT for one); without it only localhost and IP addresses are answered
        #[arg(long = "public-host", value_name = "NAME")]
        public_host: Vec<String>,
        /// The most MCP sessions this process holds, every token's together (past it: 503)
        #[arg(long = "max-sessions", value_name = "N", default_value_t = serve::MAX_SESSIONS as u32, value_parser = clap::value_parser!(u32).range(1..))]
        max_sessions: u32,
        /// The most MCP sessions one token holds (past it: 429)
        #[arg(long = "max-sessions-per-token", value_name = "N", default_value_t = serve::MAX_SESSIONS_PER_TOKEN as u32, value_parser = clap::value_parser!(u32).range(1..))]
        max_sessions_per_token: u32,
        /// The most live streams one token holds: board event streams, MCP GET streams and subscriptions/listen together (past it: 429)
        #[arg(long = "max-streams-per-token", value_name = "N", default_value_t = serve::MAX_STREAMS_PER_TOKEN as u32, value_parser = clap::value_parser!(u32).range(1..))]
        max_streams_per_token: u32,
        /// The most connections this process holds at once; past it, a new one waits until one closes
        #[arg(long = "max-connections", value_name = "N", default_value_t = serve::MAX_CONNECTIONS as u32, value_parser = clap::value_parser!(u32).range(1..))]
        max_connections: u32,
        /// Forget conversations unchanged for this long (30d, 12h; s, m, h, d, w), sweeping the whole store from start-up on [default: keep them]
        #[arg(long, value_name = "DURATION", value_parser = commands::conversations::lifecycle::parse_duration)]
        retain: Option<std::time::Duration>,
        /// How long a board sign-in lasts before the browser signs in again (12h, 7d; s, m, h, d, w) [default: 1d]
        #[arg(long = "session-ttl", value_name = "DURATION", value_parser = commands::conversations::lifecycle::parse_duration)]
        session_ttl: Option<std::time::Duration>,
        /// Also put each MCP tool call's details in its result as structuredContent, for hosts that read them; the model reads the profile's text either way
        #[arg(long = "structured-content")]
        structured_content: bool,
        /// How the log on standard error is written: `text` for people, `json` (an object a line) for a log pipeline
        #[arg(long = "log-format", value_enum, default_value_t = commands::serve::LogFormat::Text)]
        log_format: commands::serve::LogFormat,
        /// How much to log: `info` (a line per request), `warn`, `error` or `off`
        #[arg(long = "log-level", value_enum, env = "TODOKIT_LOG_LEVEL", default_value_t = commands::serve::LogLevel::Info)]
        log_level: commands::serve::LogLevel,
    },
}

/// The host modes `call --mode` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Ordinary work
    Default,
    /// Plan mode: the agent only researches and proposes a plan
    Plan,
}

impl From<Mode> for todokit::HostMode {
    fn from(mode: Mode) -> Self {
        match mode {
            Mode::Default => todokit::HostMode::Default,
            Mode::Plan => todokit::HostMode::Plan,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Target {
    /// `{name, description, schema}` with a full JSON Schema document
    JsonSchema,
    /// OpenAI Chat Completions: `{type: "function", function: {name, description, parameters}}`
    Openai,
    /// The same with `strict: true` and a schema strict mode accepts
    OpenaiStrict,
    /// Anthropic Messages: `{name, description, input_schema}`
    Anthropic,
    /// MCP `tools/list`: `{name, description, inputSchema}`
    Mcp,
}

impl From<Target> for SchemaTarget {
    fn from(target: Target) -> Self {
        match target {
            Target::JsonSchema => SchemaTarget::JsonSchema,
            Target::Openai => SchemaTarget::OpenAi,
            Target::OpenaiStrict => SchemaTarget::OpenAiStrict,
            Target::Anthropic => SchemaTarget::Anthropic,
            Target::Mcp => SchemaTarget::Mcp,
        }
    }
}

/// Runs the command line `args` (the program's name first, as
/// `std::env::args_os` gives it) to its end and returns the status to exit
/// with. It is the whole process's command: it writes to the process's
/// standard output and error, reads its standard input, may wait on its
/// signals (Ctrl-C ends `watch`, `mcp` and `serve`), and exits the process
/// itself, as a command does, for `--help` and `--version` (status 0) and
/// for a command line it cannot parse (status 2).
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let matches = Cli::command().get_matches_from(args);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // `setup` gives each agent its own profile unless one is asked for on
    // the command line (a TODOKIT_PROFILE of the shell's is not meant for
    // every agent).
    let profile_given = matches.value_source("profile") == Some(clap::parser::ValueSource::CommandLine);
    start(cli, profile_given).code()
}

fn start(cli: Cli, profile_given: bool) -> ExitCode {
    // One call on a folder store needs no reactor: it runs on this thread,
    // so the process starts neither a runtime nor a worker thread.
    let on_database = StoreLocation::or_default(store::location(cli.store.as_deref()))
        .is_ok_and(|store| store.is_database());
    if !on_database && matches!(cli.command, Command::Call { .. }) {
        return exit_code(inline::block_on(dispatch(cli, profile_given)));
    }
    // The blocking pool runs the file store's work; a few threads are all
    // it needs, however many feeds wait (the board's streams), and tokio
    // would otherwise start one for each job that finds none idle.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("todokit: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    exit_code(runtime.block_on(dispatch(cli, profile_given)))
}

/// The process's exit code for what a command returned, saying why it
/// failed on standard error.
fn exit_code(outcome: Result<ExitCode>) -> ExitCode {
    match outcome {
        Ok(code) => code,
        Err(e) => {
            // Errors quote store paths, conversation ids and list text.
            commands::output::eprint_inert(&format!("todokit: {e:#}"));
            if e.downcast_ref::<commands::UsageError>().is_some() {
                return ExitCode::from(EXIT_USAGE);
            }
            let service = e.downcast_ref::<ServiceError>();
            let store = e.downcast_ref::<StoreError>();
            match (service, store) {
                (Some(ServiceError::UnknownTool { .. }), _) => ExitCode::from(EXIT_USAGE),
                (Some(ServiceError::Store(StoreError::OutcomeUnknown { .. })), _)
                | (_, Some(StoreError::OutcomeUnknown { .. })) => ExitCode::from(EXIT_OUTCOME_UNKNOWN),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

async fn dispatch(cli: Cli, profile_given: bool) -> Result<ExitCode> {
    let color = match cli.color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
    };
    if let Some(id) = &cli.conversation {
        commands::client_conversation("--conversation", id)?;
    }
    let ctx = commands::Context {
        store: cli.store.as_deref(),
        profile: &cli.profile,
        conversation: cli.conversation.clone(),
        terminal: Format::Ansi {
            color,
            glyphs: cli.glyphs,
        },
        // The MCP server serves one client on a one-thread runtime: waiting
        // for its disk there is cheaper than two thread switches per file
        // access.
        files_on_calling_thread: matches!(cli.command, Command::Mcp { .. }),
    };
    match cli.command {
        Command::Call { tool, json, mode } => commands::call::run(&ctx, tool, json, mode.into()).await,
        Command::Show { format } => commands::show::run(&ctx, format).await,
        Command::Schema { target } => commands::schema::run(&ctx, target.into()),
        Command::Check => commands::check::run(&ctx).await,
        Command::Profiles {
            format,
            check_upstream,
        } => commands::profiles::run(format, check_upstream),
        Command::Conversations { format } => commands::conversations::run(&ctx, format).await,
        Command::Forget { ids, format } => {
            commands::conversations::lifecycle::forget(&ctx, &ids, format).await
        }
        Command::Prune {
            idle,
            namespace,
            dry_run,
            format,
        } => {
            let asked = commands::conversations::lifecycle::Prune {
                idle,
                namespace: namespace.as_deref(),
                dry_run,
                format,
            };
            commands::conversations::lifecycle::prune(&ctx, asked).await
        }
        Command::Demo { delay_ms } => commands::demo::run(&ctx, delay_ms).await,
        Command::Export { file } => commands::edit::export(&ctx, file.as_deref()).await,
        Command::Import { file } => commands::edit::import(&ctx, &file).await,
        Command::Edit => commands::edit::edit(&ctx).await,
        Command::Append { words } => commands::edit::append(&ctx, words).await,
        Command::Start { name } => commands::edit::single(&ctx, UserAction::Start(name)).await,
        Command::Done { name } => commands::edit::single(&ctx, UserAction::Done(name)).await,
        Command::Drop { name } => commands::edit::single(&ctx, UserAction::Drop(name)).await,
        Command::Rm { name } => commands::edit::single(&ctx, UserAction::Rm(name)).await,
        Command::Watch { interval_ms, latest } => commands::watch::run(&ctx, interval_ms, latest).await,
        Command::Reminders => commands::reminders::run(&ctx).await,
        #[cfg(feature = "serve")]
        Command::Serve {
            bind,
            token,
            token_file,
            public_host,
            max_sessions,
            max_sessions_per_token,
            max_streams_per_token,
            max_connections,
            retain,
            session_ttl,
            structured_content,
            log_format,
            log_level,
        } => {
            let options = serve::Options {
                bind,
                token,
                token_file,
                public_hosts: public_host,
                shared: None,
                max_sessions: Some(max_sessions as usize),
                max_sessions_per_token: Some(max_sessions_per_token as usize),
                max_streams_per_token: Some(max_streams_per_token as usize),
                max_connections: Some(max_connections as usize),
                retain,
                session_ttl,
                structured_content,
            };
            commands::serve::run(&ctx, options, (log_format, log_level)).await
        }
        Command::Setup(args) => {
            commands::setup::run(&ctx, args, profile_given.then_some(cli.profile.as_str()))
        }
        Command::Mcp {
            structured_content,
            conversation_from_folder,
        } => commands::mcp::run(&ctx, structured_content, conversation_from_folder).await,
    }
}
