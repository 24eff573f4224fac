//! `todokit profiles --check-upstream`: the newest version npm or PyPI
//! serves of the package each profile was read from, so a drift shows
//! without anyone looking by hand. The only command that goes to the
//! network; `TODOKIT_NPM_REGISTRY` and `TODOKIT_PYPI_INDEX` name other
//! registries (a mirror, or a test's own).

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;
use todokit::{Pin, Profile};

/// How long one registry question may take.
const TIMEOUT: Duration = Duration::from_secs(15);

/// A package a profile was read from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Package {
    /// `npm` or `pypi`.
    pub registry: String,
    /// Its name there.
    pub name: String,
    /// The version read.
    pub version: String,
}

/// The package `profile` was read from, as its users install it: the one
/// its last check read (`npm NAME VERSION`) when it names one (opencode's
/// pin is the platform package inside `opencode-ai`, whose own versions
/// run ahead), else its pin when that is a package.
pub fn package_of(profile: &Profile) -> Option<Package> {
    let upstream = profile.upstream()?;
    let checked = upstream.checked.and_then(|checked| {
        let mut words = checked.against.split_whitespace();
        match (words.next(), words.next(), words.next(), words.next()) {
            (Some(registry @ ("npm" | "pypi")), Some(name), Some(version), None) => Some(Package {
                registry: registry.to_owned(),
                name: name.to_owned(),
                version: version.to_owned(),
            }),
            _ => None,
        }
    });
    match (checked, upstream.pin) {
        (Some(package), _) => Some(package),
        (
            None,
            Pin::Package {
                registry,
                name,
                version,
                ..
            },
        ) => Some(Package {
            registry: registry.to_owned(),
            name: name.to_owned(),
            version: version.to_owned(),
        }),
        (None, _) => None,
    }
}

/// What the registry says of one package, in a few words.
pub type Verdict = String;

/// The newest version of each package, asked once each.
pub fn check(packages: impl IntoIterator<Item = Package>) -> HashMap<Package, Verdict> {
    // The system's trusted certificates (a company's proxy included), as
    // npm and pip use them; on macOS the Mozilla set ureq bundles, since
    // the system's would link Apple's Security framework, which the
    // release's cross-build cannot (docs/dependencies.md).
    #[cfg(not(target_os = "macos"))]
    let roots = ureq::tls::RootCerts::PlatformVerifier;
    #[cfg(target_os = "macos")]
    let roots = ureq::tls::RootCerts::WebPki;
    let tls = ureq::tls::TlsConfig::builder().root_certs(roots).build();
    let agent = ureq::Agent::config_builder()
        .tls_config(tls)
        .timeout_global(Some(TIMEOUT))
        .user_agent(concat!("todokit/", env!("CARGO_PKG_VERSION")))
        .build()
        .new_agent();
    let mut out = HashMap::new();
    for package in packages {
        if out.contains_key(&package) {
            continue;
        }
        let verdict = match newest(&agent, &package) {
            Ok(newest) if newest == package.version => "current".to_owned(),
            Ok(newest) => format!("newer upstream: {newest}"),
            Err(reason) => format!("could not ask {}: {reason}", package.registry),
        };
        out.insert(package, verdict);
    }
    out
}

fn base(variable: &str, default: &str) -> String {
    std::env::var(variable)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default.to_owned())
        .trim_end_matches('/')
        .to_owned()
}

/// The newest version the registry serves.
fn newest(agent: &ureq::Agent, package: &Package) -> Result<String, String> {
    let (url, pointer) = match package.registry.as_str() {
        // A scoped name's `/` is escaped, as npm's own client does.
        "npm" => (
            format!(
                "{}/{}/latest",
                base("TODOKIT_NPM_REGISTRY", "https://registry.npmjs.org"),
                package.name.replace('/', "%2F")
            ),
            "/version",
        ),
        "pypi" => (
            format!(
                "{}/pypi/{}/json",
                base("TODOKIT_PYPI_INDEX", "https://pypi.org"),
                package.name
            ),
            "/info/version",
        ),
        other => return Err(format!("no registry {other} is known")),
    };
    let mut response = agent.get(&url).call().map_err(|e| e.to_string())?;
    // A package's whole record can be large (PyPI lists every release's
    // files); a bound keeps an odd answer from growing without end.
    let text = response
        .body_mut()
        .with_config()
        .limit(32 * 1024 * 1024)
        .read_to_string()
        .map_err(|e| e.to_string())?;
    let body: Value = serde_json::from_str(&text).map_err(|e| format!("its answer is not JSON: {e}"))?;
    body.pointer(pointer)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("its answer has no {pointer}"))
}
