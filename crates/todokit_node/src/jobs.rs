//! Work run on libuv's worker threads, each settling one promise on the
//! main thread: the store's calls, which may block on the disk or the
//! database. A kit whose store does no I/O (the memory store) runs the
//! same work at once on the calling thread instead: a trip through the
//! pool costs a worker's wake-up (a few hundred microseconds once the
//! worker sleeps, as between an agent's steps), the work itself a few.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde::Serialize;
use serde_json::Value;
use todokit_binding::{Answer, ErrorCode};

use crate::errors::tagged;

/// A finished call (the TypeScript layer's `ToolResult` wraps it): what
/// the model reads, whether it is an error, and the details, which become
/// JavaScript objects only when a host reads them.
#[napi]
pub struct CallAnswer {
    content: String,
    is_error: bool,
    /// The details as the service serialized them.
    details: String,
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

#[napi]
impl CallAnswer {
    /// What the model reads.
    #[napi(getter)]
    pub fn content(&self) -> String {
        self.content.clone()
    }

    /// Whether the call was refused (nothing was stored).
    #[napi(getter)]
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The details as JavaScript objects, built on each call (the layer
    /// keeps the first).
    #[napi(ts_return_type = "unknown")]
    pub fn details(&self) -> Result<Value> {
        serde_json::from_str(&self.details)
            .map_err(|e| tagged(ErrorCode::Usage, format!("the details cannot be read: {e}")))
    }
}

/// `value` as the tree napi builds JavaScript objects from.
pub fn value(value: &impl Serialize) -> Result<Json> {
    serde_json::to_value(value).map(Json).map_err(|e| {
        tagged(
            ErrorCode::Usage,
            format!("cannot hand the answer to JavaScript: {e}"),
        )
    })
}

/// A stored document (a list, the store's conversations) as [`value`]
/// gives it, its keys in camelCase ([`todokit_binding::camel_case`]).
pub fn document(document: &impl Serialize) -> Result<Json> {
    value(document).map(|json| Json(todokit_binding::camel_case(json.0)))
}

/// A value a job settles its promise with, which napi builds as
/// JavaScript objects when it hands it over (`serde_json::Value`'s own
/// conversion; a job's value must also name its TypeScript type, which
/// napi gives `Value` only as a function's return).
pub struct Json(pub Value);

impl TypeName for Json {
    fn type_name() -> &'static str {
        "unknown"
    }

    fn value_type() -> ValueType {
        ValueType::Unknown
    }
}

impl ToNapiValue for Json {
    // SAFETY: napi calls this with the environment it is converting in, as
    // it calls `Value`'s own conversion, which this hands it to unchanged.
    #[allow(unsafe_code)]
    unsafe fn to_napi_value(env: napi::sys::napi_env, json: Self) -> Result<napi::sys::napi_value> {
        // SAFETY: the same `env`, given by napi for this conversion.
        #[allow(unsafe_code)]
        unsafe {
            Value::to_napi_value(env, json.0)
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
                    None => Err(tagged(ErrorCode::Usage, "a job ran twice")),
                }
            }

            fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
                Ok(output)
            }
        }
    };
}

job!(
    /// Settles with a value napi builds as JavaScript objects.
    ValueJob => Json
);
job!(
    /// Settles with a text or nothing.
    MaybeTextJob => Option<String>
);
job!(
    /// Settles with nothing.
    UnitJob => ()
);
job!(
    /// Settles with one call's answer.
    CallJob => CallAnswer
);
job!(
    /// Settles with a round's answers.
    RoundJob => Vec<CallAnswer>
);
