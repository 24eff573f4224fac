//! The tokens a request may carry: the `--token-file` that gives each
//! tenant's token a namespace of the store, the caller each token makes,
//! and the cookies a tenant's browser signs in with.
//!
//! A line is `TOKEN NAMESPACE`; blank lines and lines starting with `#`
//! are skipped. A namespace is 1 to 32 of `a-z 0-9 _ -`, so it can never
//! hold the `/` that ends it in a stored id. Tokens are kept as their
//! SHA-256 only: looking one up compares digests, so the time a wrong token
//! takes tells nothing about a right one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use sha2::{Digest, Sha256};
use todokit::{Clock, SystemClock};

use todokit::infra::store::{MAX_NAMESPACE_BYTES, is_namespace};

/// Who a request is: a token. Quotas, session ownership and revocation
/// are per caller.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Caller {
    /// The operator (`--token`), or anyone on a loopback server with no
    /// token at all: the whole store, ids as stored (`NAMESPACE/ID`).
    Operator,
    /// A tenant's token: its namespace only, ids without the prefix.
    Tenant {
        /// The namespace the token opens.
        namespace: Arc<str>,
        /// Which token it is (its digest's first half: two tokens of one
        /// namespace are two callers).
        token: TokenId,
    },
}

/// A token of the token file, known by half its SHA-256 (never the token).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenId([u8; 16]);

impl TokenId {
    fn of(digest: &[u8; 32]) -> Self {
        let mut half = [0u8; 16];
        half.copy_from_slice(&digest[..16]);
        Self(half)
    }

    /// The id as hexadecimal (for the sessions table).
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl std::fmt::Debug for TokenId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TokenId({}…)", &self.hex()[..8])
    }
}

impl Caller {
    /// What kind of caller it is, as metrics and logs name it:
    /// `operator` or `tenant` (never which one).
    pub fn kind(&self) -> &'static str {
        match self {
            Caller::Operator => "operator",
            Caller::Tenant { .. } => "tenant",
        }
    }

    /// The namespace the caller is confined to, if any.
    pub fn namespace(&self) -> Option<&Arc<str>> {
        match self {
            Caller::Operator => None,
            Caller::Tenant { namespace, .. } => Some(namespace),
        }
    }

    /// A tenant of `namespace` by a token whose SHA-256 is `digest`.
    fn tenant(namespace: Arc<str>, digest: &[u8; 32]) -> Self {
        Caller::Tenant {
            namespace,
            token: TokenId::of(digest),
        }
    }

    /// For the serve modules' tests: the tenant of `namespace` whose token
    /// is `t-NAMESPACE`.
    #[cfg(test)]
    pub fn test_tenant(namespace: &str) -> Self {
        use sha2::Digest;
        let digest: [u8; 32] = sha2::Sha256::digest(format!("t-{namespace}").as_bytes()).into();
        Caller::tenant(namespace.into(), &digest)
    }
}

/// The digest a token is known by.
fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The id a tenant's sessions name its token by (see
/// `super::sessions`): 16 hex digits of an HMAC keyed with the token's
/// digest, so it tells nothing of the token.
fn kid_of(digest: &[u8; 32]) -> Option<String> {
    let mac = hmac_hex(digest, b"todokit serve: a tenant's session key id")?;
    Some(mac[..16].to_owned())
}

/// HMAC-SHA-256 of `label` keyed with `key`, as hex (`None` never comes:
/// HMAC takes a key of any length).
pub fn hmac_hex(key: &[u8], label: &[u8]) -> Option<String> {
    use hmac::{KeyInit, Mac};
    let mut mac = hmac::Hmac::<Sha256>::new_from_slice(key).ok()?;
    mac.update(label);
    Some(
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

/// The tokens of a token file, by digest (each with its namespace and
/// when it came into the file, 0 for a token there from the start), and
/// their session key ids.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Tokens(HashMap<[u8; 32], (Arc<str>, u64)>, HashMap<String, [u8; 32]>);

impl Tokens {
    /// Reads a token file's text; the error names the line at fault.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut tokens = HashMap::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(token), Some(namespace), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!(
                    "line {number}: expected `TOKEN NAMESPACE` (two words), got {} word(s)",
                    line.split_whitespace().count()
                ));
            };
            if !is_namespace(namespace) {
                return Err(format!(
                    "line {number}: namespace {namespace:?} must be 1 to {MAX_NAMESPACE_BYTES} of a-z, 0-9, `_` \
                     and `-`"
                ));
            }
            if tokens.insert(digest(token), (Arc::from(namespace), 0)).is_some() {
                return Err(format!(
                    "line {number}: this token is listed already (a token opens one namespace)"
                ));
            }
        }
        let kids = tokens
            .keys()
            .filter_map(|digest| Some((kid_of(digest)?, *digest)))
            .collect();
        Ok(Self(tokens, kids))
    }

    /// These tokens as read again after `before`, at `now`: a token
    /// `before` had (in the same namespace) keeps the time it came; a new
    /// one, or one moved, came `now`.
    fn since(mut self, before: &Tokens, now: u64) -> Self {
        for (digest, (namespace, since)) in &mut self.0 {
            *since = match before.0.get(digest) {
                Some((was, at)) if was == namespace => *at,
                _ => now,
            };
        }
        self
    }

    /// The namespace `token` opens.
    #[cfg(test)]
    pub fn namespace_of(&self, token: &str) -> Option<Arc<str>> {
        self.0
            .get(&digest(token))
            .map(|(namespace, _)| Arc::clone(namespace))
    }

    /// The caller `token` makes a request, if it is one of these.
    pub fn caller_of(&self, token: &str) -> Option<Caller> {
        let digest = digest(token);
        self.0
            .get(&digest)
            .map(|(namespace, _)| Caller::tenant(Arc::clone(namespace), &digest))
    }

    /// The caller whose session key id is `kid`, the key its sessions are
    /// signed with, and since when its token has been in the file.
    pub fn session_key(&self, kid: &str) -> Option<(Caller, [u8; 32], u64)> {
        let digest = self.1.get(kid)?;
        let (namespace, since) = self.0.get(digest)?;
        Some((Caller::tenant(Arc::clone(namespace), digest), *digest, *since))
    }

    /// The session key id and key of `token`, if it is one of these.
    pub fn session_key_of(&self, token: &str) -> Option<(String, [u8; 32])> {
        let digest = digest(token);
        self.0
            .contains_key(&digest)
            .then(|| Some((kid_of(&digest)?, digest)))
            .flatten()
    }

    /// The callers of `self` that `next` no longer has as they were: tokens
    /// removed, or moved to another namespace.
    pub fn revoked_by(&self, next: &Tokens) -> Vec<Caller> {
        self.0
            .iter()
            .filter(|(digest, (namespace, _))| next.0.get(*digest).map(|(n, _)| n) != Some(namespace))
            .map(|(digest, (namespace, _))| Caller::tenant(Arc::clone(namespace), digest))
            .collect()
    }

    /// How many tokens there are.
    pub fn count(&self) -> usize {
        self.0.len()
    }
}

/// A token file and its current tokens, re-read on demand (SIGHUP).
#[derive(Debug)]
pub struct TokenFile {
    path: PathBuf,
    tokens: RwLock<Tokens>,
}

impl TokenFile {
    /// Reads `path`; the error says what is wrong with it.
    pub fn open(path: &Path) -> Result<Self, String> {
        let tokens = Self::read(path)?;
        Ok(Self {
            path: path.to_owned(),
            tokens: RwLock::new(tokens),
        })
    }

    fn read(path: &Path) -> Result<Tokens, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("--token-file {}: {error}", path.display()))?;
        Tokens::parse(&text).map_err(|error| format!("--token-file {}: {error}", path.display()))
    }

    /// Reads the file again: how many tokens it has, and the callers it
    /// revoked (tokens removed or moved to another namespace). On an error
    /// the tokens stay as they were and the error is returned for the
    /// operator's log.
    pub fn reload(&self) -> Result<(usize, Vec<Caller>), String> {
        let tokens = Self::read(&self.path)?;
        let count = tokens.count();
        let mut current = self.tokens.write().unwrap_or_else(|p| p.into_inner());
        let revoked = current.revoked_by(&tokens);
        *current = tokens.since(&current, SystemClock.now());
        Ok((count, revoked))
    }

    /// The caller `token` makes a request now, if it is in the file.
    pub fn caller_of(&self, token: &str) -> Option<Caller> {
        self.tokens
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .caller_of(token)
    }

    /// [`Tokens::session_key`], while the token is in the file.
    pub fn session_key(&self, kid: &str) -> Option<(Caller, [u8; 32], u64)> {
        self.tokens
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .session_key(kid)
    }

    /// [`Tokens::session_key_of`], while the token is in the file.
    pub fn session_key_of(&self, token: &str) -> Option<(String, [u8; 32])> {
        self.tokens
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .session_key_of(token)
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_token_file_maps_tokens_to_namespaces() {
        let fixture = "# fleet tokens\n\nt-acme acme\n  t-initech   initech_2  \n";
        let tokens = Tokens::parse(fixture).unwrap();
        let actual = (
            tokens.namespace_of("t-acme").as_deref().map(str::to_owned),
            tokens.namespace_of("t-initech").as_deref().map(str::to_owned),
            tokens.namespace_of("acme"),
            tokens.count(),
        );
        let expected = (Some("acme".to_owned()), Some("initech_2".to_owned()), None, 2);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_reload_revokes_tokens_removed_or_moved_and_keeps_the_rest() {
        let before = Tokens::parse("t-a acme\nt-b acme\nt-c initech\n").unwrap();
        let after = Tokens::parse("t-a acme\nt-c other\nt-d acme\n").unwrap();
        let name = |caller: &Caller| caller.namespace().map(|n| n.to_string());
        let mut actual: Vec<(Option<String>, bool, bool)> = before
            .revoked_by(&after)
            .iter()
            .map(|caller| {
                (
                    name(caller),
                    Some(caller) == before.caller_of("t-b").as_ref(),
                    Some(caller) == before.caller_of("t-c").as_ref(),
                )
            })
            .collect();
        actual.sort();
        let expected = vec![
            (Some("acme".to_owned()), true, false),
            (Some("initech".to_owned()), false, true),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_tenants_session_key_is_its_tokens_while_in_the_file_and_one_readded_counts_from_its_return() {
        let first = Tokens::parse("t-a acme\nt-b initech\n").unwrap();
        let (kid, key) = first.session_key_of("t-a").unwrap_or_default();
        let removed = Tokens::parse("t-b initech\n").unwrap().since(&first, 5);
        let back = Tokens::parse("t-a acme\nt-b initech\n")
            .unwrap()
            .since(&removed, 9);
        let since = |tokens: &Tokens| {
            tokens
                .session_key(&kid)
                .map(|(caller, k, at)| (caller, k == key, at))
        };
        let actual = (
            since(&first),
            first.session_key_of("t-b").map(|(other, _)| other == kid),
            first.session_key_of("t-c"),
            since(&removed),
            since(&back),
            back.session_key_of("t-b")
                .and_then(|(b, _)| back.session_key(&b))
                .map(|(_, _, at)| at),
            kid.len(),
        );
        let caller = first.caller_of("t-a");
        let expected = (
            caller.clone().map(|c| (c, true, 0)),
            Some(false),
            None,
            None,
            caller.map(|c| (c, true, 9)),
            Some(0),
            16,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_tokens_of_one_namespace_are_two_callers() {
        let tokens = Tokens::parse("t-a acme\nt-b acme\n").unwrap();
        let (a, b) = (tokens.caller_of("t-a"), tokens.caller_of("t-b"));
        let actual = (
            a == b,
            a.as_ref().and_then(Caller::namespace) == b.as_ref().and_then(Caller::namespace),
        );
        let expected = (false, true);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_bad_token_file_names_its_line() {
        let fixture = [
            "t1 acme\nt1 initech\n",
            "t1\n",
            "t1 acme extra\n",
            "t1 Acme\n",
            "t1 a/b\n",
            &format!("t1 {}\n", "a".repeat(33)),
        ];
        let actual: Vec<String> = fixture
            .iter()
            .map(|text| Tokens::parse(text).unwrap_err())
            .collect();
        let expected = vec![
            "line 2: this token is listed already (a token opens one namespace)".to_owned(),
            "line 1: expected `TOKEN NAMESPACE` (two words), got 1 word(s)".to_owned(),
            "line 1: expected `TOKEN NAMESPACE` (two words), got 3 word(s)".to_owned(),
            "line 1: namespace \"Acme\" must be 1 to 32 of a-z, 0-9, `_` and `-`".to_owned(),
            "line 1: namespace \"a/b\" must be 1 to 32 of a-z, 0-9, `_` and `-`".to_owned(),
            format!(
                "line 1: namespace \"{}\" must be 1 to 32 of a-z, 0-9, `_` and `-`",
                "a".repeat(33)
            ),
        ];
        assert_eq!(actual, expected);
    }
}
