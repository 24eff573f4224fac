//! TLS to the database (rustls), with `sslmode` and `sslrootcert` read from
//! the URL as libpq reads them, so a managed PostgreSQL's usual URL works:
//!
//! - `disable`: no TLS.
//! - `prefer` (the default) and `require`: TLS (`prefer` falls back to a
//!   plain connection when the server offers none); the server's
//!   certificate is checked against `sslrootcert` when one is given, and
//!   not checked otherwise, as libpq does.
//! - `verify-ca`: the certificate must chain to `sslrootcert` (else the
//!   system's roots).
//! - `verify-full`: that, and it must name the host connected to.
//!
//! tokio-postgres knows only `disable`, `prefer` and `require` and no
//! `sslrootcert`, so both are taken out of the URL here and the rest is
//! left to it.

use std::path::PathBuf;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{WebPkiServerVerifier, verify_server_cert_signed_by_trust_anchor};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, Error, RootCertStore, SignatureScheme};
use tokio_postgres_rustls::MakeRustlsConnect;

/// Where and how to connect: the parsed URL and the TLS connector.
#[derive(Clone)]
pub struct Target {
    /// The URL as tokio-postgres reads it.
    pub config: tokio_postgres::Config,
    /// TLS as the URL asks (not used with `sslmode=disable`).
    pub tls: MakeRustlsConnect,
}

/// How the server's certificate is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verify {
    /// Not at all (`prefer`/`require` with no `sslrootcert`).
    Nothing,
    /// It chains to a trusted root.
    Chain,
    /// It chains to a trusted root and names the host.
    ChainAndHost,
}

/// What the URL asks of TLS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsSettings {
    /// How to check the server.
    pub verify: Verify,
    /// The roots to trust instead of the system's (`sslrootcert`).
    pub root_cert: Option<PathBuf>,
}

/// `url` without what tokio-postgres cannot read (`sslrootcert`, and the
/// `verify-*` modes, which become `require`), and the TLS settings it
/// asks for; the error names a mode libpq does not have either.
pub fn split_url(url: &str) -> Result<(String, TlsSettings), String> {
    let mut mode = None::<String>;
    let mut root_cert = None::<PathBuf>;
    let rewritten = if let Some((base, query)) = url
        .split_once('?')
        .filter(|_| url.starts_with("postgres://") || url.starts_with("postgresql://"))
    {
        let mut kept = Vec::new();
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decoded = percent_encoding::percent_decode_str(value)
                .decode_utf8_lossy()
                .into_owned();
            match key {
                "sslrootcert" => root_cert = Some(PathBuf::from(decoded)),
                "sslmode" => {
                    mode = Some(decoded.clone());
                    kept.push(format!("sslmode={}", tokio_mode(&decoded)?));
                }
                _ => kept.push(pair.to_owned()),
            }
        }
        if kept.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{}", kept.join("&"))
        }
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        url.to_owned()
    } else {
        // `key=value` pairs separated by spaces (values without spaces).
        let mut kept = Vec::new();
        for pair in url.split_whitespace() {
            match pair.split_once('=') {
                Some(("sslrootcert", value)) => root_cert = Some(PathBuf::from(value.trim_matches('\''))),
                Some(("sslmode", value)) => {
                    let value = value.trim_matches('\'');
                    mode = Some(value.to_owned());
                    kept.push(format!("sslmode={}", tokio_mode(value)?));
                }
                _ => kept.push(pair.to_owned()),
            }
        }
        kept.join(" ")
    };
    let verify = match mode.as_deref() {
        Some("verify-full") => Verify::ChainAndHost,
        Some("verify-ca") => Verify::Chain,
        _ if root_cert.is_some() => Verify::Chain,
        _ => Verify::Nothing,
    };
    Ok((rewritten, TlsSettings { verify, root_cert }))
}

/// The mode tokio-postgres is given for libpq's `mode`.
fn tokio_mode(mode: &str) -> Result<&'static str, String> {
    match mode {
        "disable" => Ok("disable"),
        // libpq's `allow` tries without TLS first; tokio-postgres cannot,
        // and `prefer` reaches the same servers.
        "allow" | "prefer" => Ok("prefer"),
        "require" | "verify-ca" | "verify-full" => Ok("require"),
        other => Err(format!(
            "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, verify-full"
        )),
    }
}

/// The connector for `settings`: the roots read, the checks chosen.
pub fn connector(settings: &TlsSettings) -> Result<MakeRustlsConnect, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?;
    let algorithms = provider.signature_verification_algorithms;
    let config = match settings.verify {
        Verify::Nothing => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(NoHostCheck {
                roots: None,
                algorithms,
            }))
            .with_no_client_auth(),
        Verify::Chain => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(NoHostCheck {
                roots: Some(Arc::new(roots(settings)?)),
                algorithms,
            }))
            .with_no_client_auth(),
        Verify::ChainAndHost => {
            let verifier = WebPkiServerVerifier::builder_with_provider(
                Arc::new(roots(settings)?),
                Arc::clone(&provider),
            )
            .build()
            .map_err(|e| format!("TLS: {e}"))?;
            builder.with_webpki_verifier(verifier).with_no_client_auth()
        }
    };
    Ok(MakeRustlsConnect::new(config))
}

/// The trusted roots: `sslrootcert`'s certificates, else the system's.
fn roots(settings: &TlsSettings) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    match &settings.root_cert {
        Some(path) => {
            let pem = std::fs::read(path).map_err(|e| format!("sslrootcert {}: {e}", path.display()))?;
            let certs: Vec<CertificateDer<'static>> = rustls::pki_types::pem::PemObject::pem_slice_iter(&pem)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("sslrootcert {}: not PEM certificates ({e})", path.display()))?;
            let (added, _) = roots.add_parsable_certificates(certs);
            if added == 0 {
                return Err(format!("sslrootcert {}: holds no certificate", path.display()));
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            roots.add_parsable_certificates(found.certs);
            if roots.is_empty() {
                return Err(
                    "no system root certificates were found; name the server's CA with sslrootcert=".into(),
                );
            }
        }
    }
    Ok(roots)
}

/// The modes that do not check the host name: `verify-ca` (the chain to
/// a trusted root, whatever host the certificate names, as libpq's) with
/// `roots`, and `require` or `prefer` without them (nothing about the
/// certificate; the handshake's signatures are checked all the same).
#[derive(Debug)]
struct NoHostCheck {
    roots: Option<Arc<RootCertStore>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for NoHostCheck {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        if let Some(roots) = &self.roots {
            let cert = rustls::server::ParsedCertificate::try_from(end_entity)?;
            verify_server_cert_signed_by_trust_anchor(&cert, roots, intermediates, now, self.algorithms.all)?;
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn libpq_ssl_parameters_are_read_and_taken_out() {
        let fixture = [
            "postgres://u@db.example/app?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=x",
            "postgres://u@db.example/app?sslmode=require",
            "postgres://u@db.example/app?sslrootcert=/ca.pem",
            "postgres://u@db.example/app",
            "host=db.example sslmode=verify-ca sslrootcert=/ca.pem dbname=app",
        ];
        let actual: Vec<(String, Verify, Option<PathBuf>)> = fixture
            .iter()
            .map(|url| {
                let (url, settings) = split_url(url).unwrap();
                (url, settings.verify, settings.root_cert)
            })
            .collect();
        let expected = vec![
            (
                "postgres://u@db.example/app?sslmode=require&application_name=x".to_owned(),
                Verify::ChainAndHost,
                Some(PathBuf::from("/etc/ca.pem")),
            ),
            (
                "postgres://u@db.example/app?sslmode=require".to_owned(),
                Verify::Nothing,
                None,
            ),
            (
                "postgres://u@db.example/app".to_owned(),
                Verify::Chain,
                Some(PathBuf::from("/ca.pem")),
            ),
            ("postgres://u@db.example/app".to_owned(), Verify::Nothing, None),
            (
                "host=db.example sslmode=require dbname=app".to_owned(),
                Verify::Chain,
                Some(PathBuf::from("/ca.pem")),
            ),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_tls_setup_refusal_is_pinned() {
        let dir = std::env::temp_dir().join(format!("todokit-tls-words-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let garbled = dir.join("garbled.pem");
        let empty = dir.join("empty.pem");
        let _ = std::fs::write(
            &garbled,
            "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n",
        );
        let _ = std::fs::write(&empty, "no certificate here\n");
        let with_root = |path: &std::path::Path| TlsSettings {
            verify: Verify::ChainAndHost,
            root_cert: Some(path.to_owned()),
        };
        let refusals = [
            (
                "an unknown sslmode",
                split_url("postgres://u@h/db?sslmode=always").err(),
            ),
            (
                "a keyword string's unknown sslmode",
                split_url("host=h sslmode=maybe").err(),
            ),
            (
                "an sslrootcert that is not there",
                connector(&with_root(std::path::Path::new("/nonexistent/ca.pem"))).err(),
            ),
            (
                "an sslrootcert that is not PEM",
                connector(&with_root(&garbled)).err(),
            ),
            (
                "an sslrootcert with no certificate",
                connector(&with_root(&empty)).err(),
            ),
        ];
        let _ = std::fs::remove_dir_all(&dir);
        let folder = dir.display().to_string();
        let actual = refusals
            .iter()
            .map(|(case, refusal)| {
                let words = refusal.as_deref().unwrap_or("(accepted)").replace(&folder, "DIR");
                format!("{case}: {words}")
            })
            .collect::<Vec<_>>()
            .join("\n");
        crate::test_support::snapshot_settings()
            .bind(|| insta::assert_snapshot!("postgres_tls_refusals", actual));
    }

    #[test]
    fn an_unknown_sslmode_is_named() {
        let actual = split_url("postgres://u@h/db?sslmode=always").unwrap_err();
        assert_eq!(
            actual,
            "sslmode=always is not one of disable, allow, prefer, require, verify-ca, verify-full"
        );
    }
}
