//! Tools: what one is to the catalog and the service, the two ways a
//! profile writes one (typed, or with a command discriminator), and what a
//! call gives back.

mod command;
mod context;
mod error;
mod metadata;
mod mode;
mod refused_in;
mod result;
mod typed;

pub use command::{CommandTool, Commands};
pub use context::{CallContext, Outcome};
pub use error::ToolError;
pub use metadata::ToolMetadata;
pub use mode::{CallOptions, HostMode, ModeSet};
pub use refused_in::RefusedIn;
pub(crate) use refused_in::mode_refusal_result;
pub use result::ToolResult;
pub use typed::{DecodedInput, Tool, TypedTool};
