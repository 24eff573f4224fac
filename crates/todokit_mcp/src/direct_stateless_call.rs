//! The request nearly every remote client sends, a `tools/call` of
//! protocol 2026-07-28 (no session: each request carries its protocol
//! metadata), answered straight away: read without building its arguments
//! as a tree, run, and written as rmcp writes the answer. rmcp reads each
//! message into a tree of values (twice, through its untagged message
//! enums) and writes the answer from another, which cost several times the
//! call itself. Anything but the plainest shape is left to rmcp: this
//! returns `None` and the caller hands the request on unchanged.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use todokit::app::{CallOptions, HostMode};

use super::server::{RemoteScope, remote_conversation};

/// The protocol version this path answers.
pub const STATELESS_PROTOCOL: &str = "2026-07-28";

/// A `tools/call` of protocol 2026-07-28 with nothing but a name, the
/// arguments and the metadata todokit and the protocol define.
#[derive(Debug)]
pub struct StatelessCall<'a> {
    id: Value,
    /// The tool's name, as written (no escapes).
    pub name: &'a str,
    arguments: Option<&'a RawValue>,
    conversation: Option<&'a str>,
    mode: Option<&'a str>,
}

/// `body` as such a call, or `None` for anything else (which rmcp reads).
pub fn stateless_tool_call(body: &[u8]) -> Option<StatelessCall<'_>> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Envelope<'a> {
        jsonrpc: &'a str,
        id: Value,
        method: &'a str,
        #[serde(borrow)]
        params: Params<'a>,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Params<'a> {
        name: &'a str,
        #[serde(borrow)]
        arguments: Option<&'a RawValue>,
        #[serde(rename = "_meta", borrow)]
        meta: Meta<'a>,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Meta<'a> {
        #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
        protocol_version: &'a str,
        #[serde(rename = "io.modelcontextprotocol/clientCapabilities", borrow)]
        client_capabilities: &'a RawValue,
        #[serde(rename = "io.modelcontextprotocol/clientInfo", borrow, default)]
        client_info: Option<&'a RawValue>,
        // The keys of `super::server::CONVERSATION_META_KEY` and
        // `MODE_META_KEY` (an attribute takes a literal only).
        #[serde(rename = "todokit/conversation", default)]
        conversation: Option<&'a str>,
        #[serde(rename = "todokit/mode", default)]
        mode: Option<&'a str>,
    }
    let envelope: Envelope<'_> = serde_json::from_slice(body).ok()?;
    let is_object = |raw: &RawValue| raw.get().trim_start().starts_with('{');
    let id_ok = match &envelope.id {
        Value::String(_) => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    };
    let meta = &envelope.params.meta;
    let plain = envelope.jsonrpc == "2.0"
        && envelope.method == "tools/call"
        && id_ok
        && meta.protocol_version == STATELESS_PROTOCOL
        && is_object(meta.client_capabilities)
        && meta.client_info.is_none_or(is_object)
        && envelope
            .params
            .arguments
            .is_none_or(|a| is_object(a) || a.get() == "null")
        && meta
            .conversation
            .is_none_or(|c| remote_conversation("", Some(c)).is_ok())
        && meta.mode.is_none_or(|m| HostMode::from_word(m).is_some());
    plain.then_some(StatelessCall {
        id: envelope.id,
        name: envelope.params.name,
        arguments: envelope.params.arguments.filter(|a| a.get() != "null"),
        conversation: meta.conversation,
        mode: meta.mode,
    })
}

/// Runs `call` in `scope` and writes the JSON answer rmcp would write.
pub async fn answer_stateless_call(scope: &RemoteScope, call: &StatelessCall<'_>) -> Vec<u8> {
    let _counted = scope.count_call();
    let conversation = call.conversation.unwrap_or_else(|| scope.conversation());
    let mode = call
        .mode
        .and_then(HostMode::from_word)
        .unwrap_or(HostMode::Default);
    let args = call.arguments.map_or("{}", RawValue::get);
    let outcome = super::direct_call::run_call(
        scope.service(),
        conversation,
        call.name,
        args,
        CallOptions::default().mode(mode),
    )
    .await;
    super::direct_call::reply(&call.id, outcome, Some("complete"))
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    fn call(params: &str) -> String {
        format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{params}}}"#)
    }

    const META: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#;

    /// What a taken call names: its tool, conversation and mode.
    type Taken = Option<(String, Option<String>, Option<String>)>;

    #[test]
    fn only_the_plainest_call_of_2026_07_28_is_taken() {
        let fixture = [
            call(&format!(
                r#"{{"name":"TodoWrite","arguments":{{"todos":[]}},"_meta":{{{META}}}}}"#
            )),
            call(&format!(
                r#"{{"name":"TodoWrite","_meta":{{{META},"todokit/conversation":"c","todokit/mode":"plan"}}}}"#
            )),
            // Not taken: no metadata, another version, an unknown key, an
            // unknown mode, an id that is not a string or an integer, an
            // empty conversation, arguments that are not an object.
            call(r#"{"name":"TodoWrite","arguments":{}}"#),
            call(&format!(
                r#"{{"name":"T","_meta":{{{}}}}}"#,
                META.replace("2026-07-28", "2025-11-25")
            )),
            call(&format!(r#"{{"name":"T","_meta":{{{META},"x/y":1}}}}"#)),
            call(&format!(
                r#"{{"name":"T","_meta":{{{META},"todokit/mode":"yolo"}}}}"#
            )),
            call(&format!(r#"{{"name":"T","_meta":{{{META}}}}}"#)).replace(r#""id":7"#, r#""id":1.5"#),
            call(&format!(
                r#"{{"name":"T","_meta":{{{META},"todokit/conversation":""}}}}"#
            )),
            call(&format!(r#"{{"name":"T","arguments":[1],"_meta":{{{META}}}}}"#)),
        ];
        let actual: Vec<Taken> = fixture
            .iter()
            .map(|body| {
                stateless_tool_call(body.as_bytes()).map(|c| {
                    (
                        c.name.to_owned(),
                        c.conversation.map(str::to_owned),
                        c.mode.map(str::to_owned),
                    )
                })
            })
            .collect();
        let mut expected = vec![
            Some(("TodoWrite".to_owned(), None, None)),
            Some((
                "TodoWrite".to_owned(),
                Some("c".to_owned()),
                Some("plan".to_owned()),
            )),
        ];
        expected.extend(std::iter::repeat_n(None, 7));
        assert_eq!(actual, expected);
    }
}
