//! Who may ask: the checks every HTTP request passes before anything else
//! reads it, in this order.
//!
//! 1. `Host` (loopback listeners only): a loopback name (`localhost`,
//!    `127.0.0.1`, `[::1]`) or one given with `--allow-host` (a reverse
//!    proxy that passes its own name on), so a page that rebinds its own
//!    name to 127.0.0.1 is refused 403 (the transport specification's DNS
//!    rebinding warning). A non-loopback listener has a token instead.
//! 2. `Origin`, when present (browsers send it; other clients need not):
//!    a loopback origin (`http` or `https`, any port) or one given with
//!    `--allow-origin`; anything else, `null` included, is 403.
//! 3. The bearer token, when `--token-env` gave one: `Authorization:
//!    Bearer TOKEN`, compared as SHA-256 digests in constant time; missing
//!    or wrong is 401 with `WWW-Authenticate: Bearer`.
//!
//! The token is never logged, echoed or recorded; a refusal says which
//! check failed and nothing of what was sent.

use http::HeaderMap;
use sha2::{Digest, Sha256};

/// Why a request was refused before it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turned {
    /// A `Host` that is not a loopback name, on a loopback listener (403).
    Host,
    /// An `Origin` not on the allow-list (403).
    Origin,
    /// No token, or the wrong one (401).
    Token,
}

impl Turned {
    /// The HTTP status.
    pub fn status(self) -> http::StatusCode {
        match self {
            Turned::Host | Turned::Origin => http::StatusCode::FORBIDDEN,
            Turned::Token => http::StatusCode::UNAUTHORIZED,
        }
    }

    /// The response body (and the log line's reason).
    pub fn text(self) -> &'static str {
        match self {
            Turned::Host => {
                "disclose: the Host header is not a loopback name (nor one given with --allow-host); this gateway listens on loopback only\n"
            }
            Turned::Origin => {
                "disclose: the Origin header is not one this gateway allows (loopback origins, and those given with --allow-origin)\n"
            }
            Turned::Token => {
                "disclose: this gateway needs its bearer token (Authorization: Bearer TOKEN)\n"
            }
        }
    }
}

/// An origin as compared: scheme, host and port, lowercase, the port
/// explicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// Reads `scheme://host[:port]` (no path); `None` for anything else.
    pub fn parse(text: &str) -> Option<Origin> {
        let uri: http::Uri = text.trim().parse().ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let authority = uri.authority()?;
        if authority.as_str().contains('@') || !matches!(uri.path(), "" | "/") {
            return None;
        }
        let port = match (authority.port_u16(), scheme.as_str()) {
            (Some(port), _) => port,
            (None, "http") => 80,
            (None, "https") => 443,
            (None, _) => return None,
        };
        Some(Origin {
            scheme,
            host: authority
                .host()
                .trim_matches(['[', ']'])
                .to_ascii_lowercase(),
            port,
        })
    }
}

/// Whether a host (no port, no brackets) is a loopback name.
fn loopback_host(host: &str) -> bool {
    let host = host.trim_matches(['[', ']']);
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The checks of one listener.
pub struct Guard {
    /// Whether `Host` must be a loopback name (or one of `hosts`).
    loopback: bool,
    /// `--allow-host`, lowercase, without a port.
    hosts: Vec<String>,
    /// `--allow-origin`, beside the loopback origins.
    origins: Vec<Origin>,
    /// The token's SHA-256, when a token is required.
    token: Option<[u8; 32]>,
}

impl Guard {
    /// The checks for a listener on a loopback address or not, with the
    /// extra hosts and origins, and the token.
    pub fn new(
        loopback: bool,
        hosts: &[String],
        origins: Vec<Origin>,
        token: Option<&str>,
    ) -> Guard {
        Guard {
            loopback,
            hosts: hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
            origins,
            token: token.map(|t| Sha256::digest(t.as_bytes()).into()),
        }
    }

    /// The first check `headers` fail, if any.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), Turned> {
        if self.loopback && !self.host_is_loopback(headers) {
            return Err(Turned::Host);
        }
        if let Some(origin) = headers.get(http::header::ORIGIN) {
            let allowed = origin
                .to_str()
                .ok()
                .and_then(Origin::parse)
                .is_some_and(|o| self.origin_allowed(&o));
            if !allowed {
                return Err(Turned::Origin);
            }
        }
        if let Some(want) = &self.token {
            let given = bearer(headers).unwrap_or_default();
            let given: [u8; 32] = Sha256::digest(given.as_bytes()).into();
            if !same(&given, want) {
                return Err(Turned::Token);
            }
        }
        Ok(())
    }

    fn host_is_loopback(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers
            .get(http::header::HOST)
            .and_then(|h| h.to_str().ok())
        else {
            return false;
        };
        match host.parse::<http::uri::Authority>() {
            Ok(authority) => {
                let name = authority.host().to_ascii_lowercase();
                loopback_host(&name) || self.hosts.contains(&name)
            }
            Err(_) => false,
        }
    }

    fn origin_allowed(&self, origin: &Origin) -> bool {
        let web = matches!(origin.scheme.as_str(), "http" | "https");
        (web && loopback_host(&origin.host)) || self.origins.contains(origin)
    }
}

/// The token of `Authorization: Bearer TOKEN`.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim_start())
}

/// Compares two digests in time that does not depend on where they differ.
fn same(a: &[u8; 32], b: &[u8; 32]) -> bool {
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                http::HeaderName::from_bytes(name.as_bytes()).expect("a name"),
                http::HeaderValue::from_str(value).expect("a value"),
            );
        }
        map
    }

    #[test]
    fn loopback_listeners_take_loopback_hosts_only() {
        let guard = Guard::new(true, &[], Vec::new(), None);
        for host in [
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:9",
            "LOCALHOST",
            "127.5.0.1",
        ] {
            assert_eq!(guard.check(&headers(&[("host", host)])), Ok(()), "{host}");
        }
        for host in ["evil.example:8080", "127.0.0.1.evil.example", "0.0.0.0:1"] {
            assert_eq!(
                guard.check(&headers(&[("host", host)])),
                Err(Turned::Host),
                "{host}"
            );
        }
        assert_eq!(guard.check(&headers(&[])), Err(Turned::Host));
        let proxied = Guard::new(true, &["MCP.example.com".into()], Vec::new(), None);
        assert_eq!(
            proxied.check(&headers(&[("host", "mcp.example.com")])),
            Ok(())
        );
        assert_eq!(
            proxied.check(&headers(&[("host", "other.example.com")])),
            Err(Turned::Host)
        );
        let open = Guard::new(false, &[], Vec::new(), None);
        assert_eq!(open.check(&headers(&[("host", "gateway.example")])), Ok(()));
    }

    #[test]
    fn origins_are_loopback_or_allowed_exactly() {
        let extra = Origin::parse("https://ide.example.com").expect("an origin");
        let guard = Guard::new(true, &[], vec![extra], None);
        let with =
            |origin: &str| guard.check(&headers(&[("host", "127.0.0.1:1"), ("origin", origin)]));
        for ok in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:8",
            "https://ide.example.com",
            "https://IDE.example.com:443",
        ] {
            assert_eq!(with(ok), Ok(()), "{ok}");
        }
        for bad in [
            "null",
            "http://evil.example",
            "https://ide.example.com:8443",
            "http://ide.example.com",
            "file://localhost",
            "http://localhost.evil.example",
            "not an origin",
        ] {
            assert_eq!(with(bad), Err(Turned::Origin), "{bad}");
        }
    }

    #[test]
    fn the_token_is_a_bearer_token_compared_whole() {
        let guard = Guard::new(false, &[], Vec::new(), Some("correct-horse-battery"));
        let with = |value: &str| guard.check(&headers(&[("authorization", value)]));
        assert_eq!(with("Bearer correct-horse-battery"), Ok(()));
        assert_eq!(with("bearer correct-horse-battery"), Ok(()));
        for bad in [
            "Bearer correct-horse-batter",
            "Bearer correct-horse-battery2",
            "Basic correct-horse-battery",
            "correct-horse-battery",
            "Bearer ",
        ] {
            assert_eq!(with(bad), Err(Turned::Token), "{bad}");
        }
        assert_eq!(guard.check(&headers(&[])), Err(Turned::Token));
    }
}
