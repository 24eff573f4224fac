//! The request nearly every remote client sends, a plain `tools/call`,
//! answered straight away: read without building its arguments as a tree,
//! run, and written as rmcp writes the answer. rmcp reads each message
//! into a tree of values (twice, through its untagged message enums),
//! passes it through the session's worker task when there is a session,
//! and writes the answer from another tree, which cost several times the
//! call itself. Two shapes are taken: a call of protocol 2026-07-28 (no
//! session: the request carries its protocol metadata) and a call inside
//! a session of an earlier protocol (no metadata but todokit's own).
//! Anything but the plainest shape is left to rmcp: these return `None`
//! and the caller hands the request on unchanged.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use todokit::app::{CallOptions, HostMode};

use super::rmcp_gate::tool_call_parts;
use super::server::{RemoteScope, remote_conversation};

/// The protocol version whose calls carry their own metadata (no session).
pub const STATELESS_PROTOCOL: &str = "2026-07-28";

/// Which kind of request a plain call came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallEra {
    /// Protocol 2026-07-28: no session, the protocol's metadata in `_meta`.
    Stateless,
    /// Inside a session opened by `initialize` (protocols before
    /// 2026-07-28): no protocol metadata in the message.
    Session,
}

/// A `tools/call` with nothing but a name, the arguments and the metadata
/// todokit (and for [`CallEra::Stateless`] the protocol) defines.
#[derive(Debug)]
pub struct PlainCall<'a> {
    era: CallEra,
    id: Value,
    /// The tool's name, as written (no escapes).
    pub name: &'a str,
    arguments: Option<&'a RawValue>,
    conversation: Option<&'a str>,
    mode: Option<&'a str>,
}

/// `body` as a plain call of `era`, or `None` for anything else (which
/// rmcp reads).
pub fn plain_tool_call(body: &[u8], era: CallEra) -> Option<PlainCall<'_>> {
    #[derive(Deserialize, Default)]
    #[serde(deny_unknown_fields)]
    struct Meta<'a> {
        #[serde(rename = "io.modelcontextprotocol/protocolVersion", default)]
        protocol_version: Option<&'a str>,
        #[serde(rename = "io.modelcontextprotocol/clientCapabilities", borrow, default)]
        client_capabilities: Option<&'a RawValue>,
        #[serde(rename = "io.modelcontextprotocol/clientInfo", borrow, default)]
        client_info: Option<&'a RawValue>,
        // The keys of `super::server::CONVERSATION_META_KEY` and
        // `MODE_META_KEY` (an attribute takes a literal only).
        #[serde(rename = "todokit/conversation", default)]
        conversation: Option<&'a str>,
        #[serde(rename = "todokit/mode", default)]
        mode: Option<&'a str>,
    }
    let call = tool_call_parts(body)?;
    let meta: Meta<'_> = match call.meta {
        Some(meta) => serde_json::from_str(meta.get()).ok()?,
        None => Meta::default(),
    };
    let is_object = |raw: &RawValue| raw.get().trim_start().starts_with('{');
    let id_ok = match &call.id {
        // Ids starting with U+0001 are reserved (the gate refuses them).
        Value::String(id) => !id.starts_with('\u{1}'),
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    };
    let protocol_ok = match era {
        CallEra::Stateless => {
            meta.protocol_version == Some(STATELESS_PROTOCOL)
                && meta.client_capabilities.is_some_and(is_object)
                && meta.client_info.is_none_or(is_object)
        }
        // In a session the protocol was settled by `initialize`; metadata
        // naming it again is for rmcp to judge.
        CallEra::Session => {
            meta.protocol_version.is_none()
                && meta.client_capabilities.is_none()
                && meta.client_info.is_none()
        }
    };
    let plain = id_ok
        && protocol_ok
        && call.arguments.is_none_or(|a| is_object(a) || a.get() == "null")
        && meta
            .conversation
            .is_none_or(|c| remote_conversation("", Some(c)).is_ok())
        && meta.mode.is_none_or(|m| HostMode::from_word(m).is_some());
    plain.then_some(PlainCall {
        era,
        id: call.id,
        name: call.name,
        arguments: call.arguments.filter(|a| a.get() != "null"),
        conversation: meta.conversation,
        mode: meta.mode,
    })
}

/// Runs `call` in `scope` and writes the JSON-RPC answer rmcp would write
/// (the message alone: a session's answer is framed as an event by the
/// caller).
pub async fn answer_plain_call(scope: &RemoteScope, call: &PlainCall<'_>) -> Vec<u8> {
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
        scope.metrics(),
    )
    .await;
    // Protocol 2026-07-28 says what kind of result this is; earlier ones
    // have no such key.
    let result_type = (call.era == CallEra::Stateless).then_some("complete");
    super::direct_call::reply(&call.id, outcome, result_type, scope.structured_content())
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

    fn taken(body: &str, era: CallEra) -> Taken {
        plain_tool_call(body.as_bytes(), era).map(|c| {
            (
                c.name.to_owned(),
                c.conversation.map(str::to_owned),
                c.mode.map(str::to_owned),
            )
        })
    }

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
            .map(|body| taken(body, CallEra::Stateless))
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

    #[test]
    fn in_a_session_only_a_call_without_protocol_metadata_is_taken() {
        let fixture = [
            call(r#"{"name":"TodoWrite","arguments":{"todos":[]}}"#),
            call(r#"{"name":"TodoWrite","arguments":null,"_meta":{"todokit/conversation":"c"}}"#),
            call(r#"{"name":"update_plan","_meta":{"todokit/mode":"plan"}}"#),
            // Not taken: the metadata of 2026-07-28 (rmcp judges it), a
            // progress token, a key params do not have, another method, a
            // batch.
            call(&format!(r#"{{"name":"T","_meta":{{{META}}}}}"#)),
            call(r#"{"name":"T","_meta":{"progressToken":1}}"#),
            call(r#"{"name":"T","task":{}}"#),
            call(r#"{"name":"T"}"#).replace("tools/call", "tools/list"),
            format!("[{}]", call(r#"{"name":"T"}"#)),
            // Nor what the gate refuses: a reserved id, arguments deeper
            // than the parsers go.
            call(r#"{"name":"T"}"#).replace(r#""id":7"#, r#""id":"\u0001x""#),
            call(&format!(
                r#"{{"name":"T","arguments":{}1{}}}"#,
                r#"{"a":"#.repeat(70),
                "}".repeat(70)
            )),
        ];
        let actual: Vec<Taken> = fixture.iter().map(|body| taken(body, CallEra::Session)).collect();
        let mut expected = vec![
            Some(("TodoWrite".to_owned(), None, None)),
            Some(("TodoWrite".to_owned(), Some("c".to_owned()), None)),
            Some(("update_plan".to_owned(), None, Some("plan".to_owned()))),
        ];
        expected.extend(std::iter::repeat_n(None, 7));
        assert_eq!(actual, expected);
    }
}
