//! Work run on libuv's worker threads, each settling one promise on the
//! main thread: the store's calls, which may block on the disk or the
//! database. A kit whose store does no I/O (the memory store) runs the
//! same work at once on the calling thread instead: a trip through the
//! pool costs a worker's wake-up (a few hundred microseconds once the
//! worker sleeps, as between an agent's steps), the work itself a few.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use todokit_binding::Answer;

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

/// What a job method gives JavaScript: the value itself when it ran at
/// once, else a promise of it (`await` takes either).
pub type Now<T, J> = Either<T, AsyncTask<J>>;

/// Declares a job type: a closure run on a worker thread, its output the
/// promise's value.
macro_rules! job {
    ($(#[$doc:meta])* $name:ident => $output:ty) => {
        $(#[$doc])*
        pub struct $name(Option<Box<dyn FnOnce() -> Result<$output> + Send>>);

        impl $name {
            /// `work` run at once when `now` (its value, or its error
            /// thrown), else on a worker thread (a promise).
            pub fn run(
                now: bool,
                work: impl FnOnce() -> Result<$output> + Send + 'static,
            ) -> Result<Now<$output, Self>> {
                if now {
                    work().map(Either::A)
                } else {
                    Ok(Either::B(AsyncTask::new(Self(Some(Box::new(work))))))
                }
            }
        }

        impl Task for $name {
            type Output = $output;
            type JsValue = $output;

            fn compute(&mut self) -> Result<Self::Output> {
                match self.0.take() {
                    Some(work) => work(),
                    None => Err(crate::errors::tagged(todokit_binding::ErrorCode::Usage, "a job ran twice")),
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
