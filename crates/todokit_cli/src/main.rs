//! The `todokit` command: run tool calls, show and check a conversation's
//! list, print tool schemas, and replay a demo session. The contract is
//! `shared/spec/cli.md`; changes to it are recorded in `docs/cli.md`.

mod conversations;
mod demo;
mod edits;
mod inline;
use store::{is_database_url, make_service};
#[cfg(feature = "serve")]
mod serve;
mod store;
mod view;
mod watch;

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum, builder::PossibleValuesParser};
use todokit::app::schema::definitions;
use todokit::app::{MarkdownCodec, UserAction};
use todokit::infra::PiMarkdown;
use todokit::infra::render::Glyphs;
use todokit::{Format, SchemaTarget, ServiceError, end_of_turn_reminder, profiles, render};

/// Exit code for a usage error: unknown tool or profile, bad flags, or a
/// hand edit or import that cannot be applied.
const EXIT_USAGE: u8 = 2;
/// Exit code of `check` while something is open.
const EXIT_OPEN: u8 = 3;
/// The largest argument text `call` reads from standard input.
const MAX_STDIN_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, Parser)]
#[command(
    name = "todokit",
    version,
    about = "Todo-list tools for LLM agents, from the command line"
)]
struct Cli {
    /// Where state lives: a folder, or a postgres:// URL in builds with the postgres feature [default: the platform data folder + /todokit]
    #[arg(long, global = true, env = "TODOKIT_STORE", value_name = "DIR")]
    store: Option<PathBuf>,
    /// Which conversation's list
    #[arg(long, global = true, env = "TODOKIT_CONVERSATION", value_name = "ID")]
    conversation: Option<String>,
    /// Which tool family
    #[arg(
        long,
        global = true,
        env = "TODOKIT_PROFILE",
        default_value = profiles::DEFAULT,
        value_parser = PossibleValuesParser::new(profiles::names()),
    )]
    profile: String,
    /// When to colour terminal output (auto: only on a terminal with NO_COLOR unset)
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
    /// Status symbols for terminal output: unicode, ascii, or nerd (Nerd Font icons)
    #[arg(long, global = true, env = "TODOKIT_GLYPHS", default_value = "unicode")]
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
        json: Option<String>,
    },
    /// Show the current list
    Show {
        /// How to show it
        #[arg(long, value_enum, default_value_t = ShowFormat::Ansi)]
        format: ShowFormat,
    },
    /// Print the profile's tool definitions as a JSON array
    Schema {
        /// Whose tool-definition shape to print
        #[arg(long, value_enum, default_value_t = Target::JsonSchema)]
        target: Target,
    },
    /// The end-of-turn check: exit 0 when nothing is open, 3 (printing the reminder) when something is
    Check,
    /// List the profiles and their tools
    Profiles,
    /// List every conversation in the store, most recently changed first
    Conversations {
        /// `text` for people (open/total, last change, what is in progress); `json`: an array of objects, each with an `id`
        #[arg(long, value_enum, default_value = "text")]
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
    /// Serve the profile's tools over MCP on stdio, with the same store
    Mcp,
    /// A live web board of every conversation in the store (JSON API and Server-Sent Events too)
    #[cfg(feature = "serve")]
    Serve {
        /// Where to listen; anything but a loopback address needs --token
        #[arg(long, value_name = "ADDR:PORT", default_value = serve::DEFAULT_BIND)]
        bind: String,
        /// The secret every request must carry (Authorization: Bearer, or the sign-in link's cookie); enables edits from the board
        #[arg(long, env = "TODOKIT_SERVE_TOKEN", value_name = "TOKEN")]
        token: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ShowFormat {
    /// The markdown `export` writes and `import` reads back (notes included)
    Markdown,
    /// The read-only checklist the forge profile shows the model (`- [~] **task**`)
    Checklist,
    /// Plain text with ASCII status markers
    Text,
    /// Glyphs for a terminal, coloured per --color
    Ansi,
    /// The stored state as JSON
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ListFormat {
    /// Aligned columns for people
    Text,
    /// An array of objects, each with an `id`
    Json,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    // One call on a folder store needs no reactor: it runs on this thread,
    // so the process starts neither a runtime nor a worker thread.
    let on_folder = !cli.store.as_deref().is_some_and(is_database_url);
    if on_folder && matches!(cli.command, Command::Call { .. }) {
        return exit_code(inline::block_on(run(cli)));
    }
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("todokit: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    exit_code(runtime.block_on(run(cli)))
}

/// The process's exit code for what a command returned, saying why it
/// failed on standard error.
fn exit_code(outcome: Result<ExitCode>) -> ExitCode {
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("todokit: {e:#}");
            let usage = e
                .downcast_ref::<ServiceError>()
                .is_some_and(|e| matches!(e, ServiceError::UnknownTool { .. }));
            if usage {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

async fn run(cli: Cli) -> Result<ExitCode> {
    let color = match cli.color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
    };
    let terminal = Format::Ansi {
        color,
        glyphs: cli.glyphs,
    };
    let conversation = cli.conversation.clone();
    let store = cli.store.as_deref();
    // The MCP server serves one client on a one-thread runtime: waiting for
    // its disk there is cheaper than two thread switches per file access.
    let files_on_calling_thread = matches!(cli.command, Command::Mcp);
    let service = || make_service(store, &cli.profile, files_on_calling_thread);
    let conversation_or_default = || conversation.clone().unwrap_or_else(|| "default".to_owned());
    match cli.command {
        Command::Call { tool, json } => {
            let service = service().await?;
            let from_stdin = matches!(json.as_deref(), None | Some("-"));
            if from_stdin && std::io::stdin().is_terminal() {
                // Otherwise a user who forgot the JSON sees a hang.
                eprintln!("todokit call: reading {tool}'s arguments from standard input; end with Ctrl-D");
            }
            let args = match json.as_deref() {
                None | Some("-") => match read_stdin()? {
                    Stdin::Text(text) => text,
                    refused => {
                        // Not the model's arguments at all: a tool error,
                        // and nothing is stored.
                        let message = match refused {
                            Stdin::NotUtf8 { offset } => format!(
                                "standard input is not valid UTF-8: the byte at offset {offset} does not start \
                                 a valid character"
                            ),
                            _ => format!("standard input holds more than {MAX_STDIN_BYTES} bytes"),
                        };
                        let error = todokit::app::ArgumentError::Field {
                            field: todokit::app::ROOT_FIELD.to_owned(),
                            message,
                        };
                        let result = todokit::app::ToolError::from(error).into_result(&tool);
                        print_json(&serde_json::to_value(result)?)?;
                        return Ok(ExitCode::SUCCESS);
                    }
                },
                Some(text) => text.to_owned(),
            };
            let result = service.call(&conversation_or_default(), &tool, &args).await?;
            print_json(&serde_json::to_value(result)?)?;
        }
        Command::Show { format } => {
            let service = service().await?;
            let conversation = conversation_or_default();
            warn_if_unknown(&service, &conversation).await;
            // `json` is the stored state as it is; the other formats show the
            // list as the user should see it now.
            let state = match format {
                ShowFormat::Json => service.state(&conversation).await?,
                _ => service.view(&conversation).await?,
            };
            let text = match format {
                ShowFormat::Json => serde_json::to_string_pretty(&state)?,
                // One dialect: what `show` prints, `import` reads back.
                ShowFormat::Markdown => PiMarkdown.export(&state).trim_end().to_owned(),
                ShowFormat::Checklist => render(&state, Format::Markdown),
                ShowFormat::Text => render(&state, Format::Text),
                ShowFormat::Ansi => render(&state, terminal),
            };
            print_line(&text)?;
        }
        Command::Schema { target } => {
            let profile = profiles::by_name(&cli.profile).context("the profile was checked when parsing")?;
            print_json(&definitions(&profile, target.into()))?;
        }
        Command::Check => {
            let service = service().await?;
            warn_if_unknown(&service, &conversation_or_default()).await;
            let state = service.view(&conversation_or_default()).await?;
            match end_of_turn_reminder(&state) {
                Some(reminder) => {
                    print_line(&reminder)?;
                    return Ok(ExitCode::from(EXIT_OPEN));
                }
                None => print_line("No open todos.")?,
            }
        }
        Command::Profiles => {
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
        }
        Command::Conversations { format } => {
            let summaries = service().await?.conversations().await?;
            match format {
                ListFormat::Text => print_line(&conversations::text(&summaries))?,
                ListFormat::Json => print_json(&serde_json::to_value(&summaries)?)?,
            }
        }
        Command::Demo { delay_ms } => {
            if cli.profile != demo::PROFILE {
                eprintln!(
                    "todokit: the demo plays {}'s TodoWrite session only, not {}; run it with --profile {} (or \
                     without --profile and TODOKIT_PROFILE)",
                    demo::PROFILE,
                    cli.profile,
                    demo::PROFILE
                );
                return Ok(ExitCode::from(EXIT_USAGE));
            }
            let service = make_service(store, demo::PROFILE, false).await?;
            let delay = delay_ms.unwrap_or(if std::io::stdout().is_terminal() { 700 } else { 0 });
            let conversation = conversation.unwrap_or_else(|| demo::CONVERSATION.to_owned());
            demo::run(
                &service,
                &conversation,
                terminal,
                std::time::Duration::from_millis(delay),
            )
            .await?;
        }
        Command::Export { file } => {
            let service = service().await?;
            warn_if_unknown(&service, &conversation_or_default()).await;
            return edits::export(&service, &conversation_or_default(), file.as_deref()).await;
        }
        Command::Import { file } => {
            return edits::import(&service().await?, &conversation_or_default(), &file, terminal).await;
        }
        Command::Edit => return edits::edit(&service().await?, &conversation_or_default(), terminal).await,
        Command::Append { words } => {
            let service = service().await?;
            let action = match service.profile().has_phases() {
                true => match words.split_first() {
                    Some((phase, items)) if !items.is_empty() => UserAction::Append {
                        phase: Some(phase.clone()),
                        items: items.to_vec(),
                    },
                    _ => {
                        eprintln!(
                            "todokit: {} groups tasks into phases: append PHASE ITEM...; nothing changed",
                            service.profile().name()
                        );
                        return Ok(ExitCode::from(EXIT_USAGE));
                    }
                },
                false => UserAction::Append {
                    phase: None,
                    items: words,
                },
            };
            return edits::single(&service, &conversation_or_default(), action, terminal).await;
        }
        Command::Start { name } => {
            return edits::single(
                &service().await?,
                &conversation_or_default(),
                UserAction::Start(name),
                terminal,
            )
            .await;
        }
        Command::Done { name } => {
            return edits::single(
                &service().await?,
                &conversation_or_default(),
                UserAction::Done(name),
                terminal,
            )
            .await;
        }
        Command::Drop { name } => {
            return edits::single(
                &service().await?,
                &conversation_or_default(),
                UserAction::Drop(name),
                terminal,
            )
            .await;
        }
        Command::Rm { name } => {
            return edits::single(
                &service().await?,
                &conversation_or_default(),
                UserAction::Rm(name),
                terminal,
            )
            .await;
        }
        Command::Watch { interval_ms, latest } => {
            // A database has no file to watch: polling alone then.
            let store_dir = match cli.store.as_deref() {
                Some(s) if is_database_url(s) => None,
                Some(dir) => Some(dir.to_owned()),
                None => todokit::default_store_dir(),
            };
            let store_label = match (cli.store.as_deref(), &store_dir) {
                (Some(store), _) => store.display().to_string(),
                (None, Some(dir)) => dir.display().to_string(),
                (None, None) => "no store".to_owned(),
            };
            let service = service().await?;
            let options = watch::WatchOptions {
                conversation: conversation_or_default(),
                latest,
                store_dir,
                store_label,
                terminal,
                interval: std::time::Duration::from_millis(interval_ms.max(10)),
            };
            watch::run(&service, &options).await?;
        }
        Command::Reminders => {
            let notices = service().await?.take_notices(&conversation_or_default()).await?;
            let texts: Vec<String> = notices.into_iter().map(|n| n.text).collect();
            if !texts.is_empty() {
                print_line(&texts.join("\n\n"))?;
            }
        }
        #[cfg(feature = "serve")]
        Command::Serve { bind, token } => {
            let service = service().await?;
            if let Err(error) = serve::run(service, &bind, token).await {
                if error.downcast_ref::<serve::Refused>().is_some() {
                    eprintln!("todokit serve: {error}");
                    return Ok(ExitCode::from(EXIT_USAGE));
                }
                return Err(error);
            }
        }
        Command::Mcp => {
            let service = service().await?;
            // Logs go to stderr: stdout carries the protocol only.
            eprintln!(
                "todokit mcp: serving {} ({}) for conversation {:?} on stdio",
                service.profile().name(),
                service.profile().tool_names().join(", "),
                conversation_or_default()
            );
            // rmcp reports what it drops through `tracing`; without a
            // subscriber those reports would vanish.
            let _ = tracing_subscriber::fmt()
                .with_writer(std::io::stderr)
                .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
                .try_init();
            let server = todokit_cli::mcp::TodoMcpServer::new(service, conversation_or_default());
            todokit_cli::mcp::serve_stdio(server)
                .await
                .context("the MCP client did not complete the handshake")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What standard input held.
enum Stdin {
    /// Text, as sent.
    Text(String),
    /// More than [`MAX_STDIN_BYTES`].
    TooLarge,
    /// Bytes that are not UTF-8, from `offset` on.
    NotUtf8 {
        /// The byte offset of the first byte that starts no valid character.
        offset: usize,
    },
}

/// The whole of standard input. Invalid UTF-8 is refused, never replaced:
/// a list must not store text the model did not send.
fn read_stdin() -> Result<Stdin> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the arguments from standard input")?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        return Ok(Stdin::TooLarge);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Stdin::Text(text),
        Err(e) => Stdin::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        },
    })
}

fn print_json(value: &serde_json::Value) -> Result<()> {
    print_line(&serde_json::to_string_pretty(value)?)
}

/// Says on stderr when a command reads a conversation the store does not
/// have (likely a mistyped `--conversation`), with the closest ids. A store
/// that cannot list its conversations says nothing: the command goes on.
async fn warn_if_unknown(service: &todokit::TodoWriteService, conversation: &str) {
    if let Ok(summaries) = service.conversations().await
        && let Some(warning) = conversations::unknown_conversation_warning(conversation, &summaries)
    {
        eprintln!("{warning}");
    }
}

fn print_line(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        // A closed pipe (`todokit show | head -1`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
