//! Work run on libuv's worker threads, each settling one promise on the
//! main thread: the store's calls, which may block on the disk or the
//! database.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use todokit::binding::Answer;

/// A finished call: what the model reads, whether it is an error, and
/// the details as JSON text.
#[napi(object)]
pub struct CallAnswer {
    /// What the model reads.
    pub content: String,
    /// Whether the call was refused (nothing was stored).
    pub is_error: bool,
    /// The details as JSON text.
    pub details: String,
}

impl From<Answer> for CallAnswer {
    fn from(answer: Answer) -> Self {
        Self {
            content: answer.content,
            is_error: answer.is_error,
            details: answer.details,
        }
    }
}

/// Declares a job type: a closure run on a worker thread, its output the
/// promise's value.
macro_rules! job {
    ($(#[$doc:meta])* $name:ident => $output:ty) => {
        $(#[$doc])*
        pub struct $name(Option<Box<dyn FnOnce() -> Result<$output> + Send>>);

        impl $name {
            /// A job running `work`.
            pub fn new(work: impl FnOnce() -> Result<$output> + Send + 'static) -> AsyncTask<Self> {
                AsyncTask::new(Self(Some(Box::new(work))))
            }
        }

        impl Task for $name {
            type Output = $output;
            type JsValue = $output;

            fn compute(&mut self) -> Result<Self::Output> {
                match self.0.take() {
                    Some(work) => work(),
                    None => Err(crate::errors::tagged(crate::errors::USAGE, "a job ran twice")),
                }
            }

            fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
                Ok(output)
            }
        }
    };
}

job!(
    /// Settles with JSON text.
    TextJob => String
);
job!(
    /// Settles with JSON text or nothing.
    MaybeTextJob => Option<String>
);
job!(
    /// Settles with one call's answer.
    CallJob => CallAnswer
);
job!(
    /// Settles with a round's answers.
    RoundJob => Vec<CallAnswer>
);
