//! Where a key may be sent: the origin of a connection's base URL, or why the address is
//! refused. The URL must be absolute: `https`, or `http` only for this machine
//! (`localhost`, `127.0.0.1`), with no `user:password@` and no query or fragment. A URL
//! without a scheme would otherwise be fetched relative to the page, and the key sent to
//! whoever serves Agora. `connect-src` of the page's Content Security Policy (index.html)
//! allows exactly these addresses.

use std::fmt;

/// Why a base URL may not receive a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddressProblem {
    Empty,
    /// Whitespace, a control character or a backslash anywhere in it.
    Spaces,
    /// No `scheme://`: it would be fetched relative to the page.
    NotAbsolute,
    Scheme {
        scheme: String,
    },
    QueryOrFragment,
    /// `user:password@` before the host.
    Credentials,
    Ipv6Unclosed,
    NoServerName,
    Port,
    /// `http://[::1]`: a Content Security Policy cannot name an IPv6 address.
    Ipv6Loopback,
    /// `http://` to anywhere but this machine.
    PlainHttp,
}

const EXAMPLE: &str = "for example https://api.openai.com/v1";

impl fmt::Display for AddressProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressProblem::Empty => write!(f, "Enter the base URL ({EXAMPLE})."),
            AddressProblem::Spaces => f.write_str("The base URL cannot contain spaces or backslashes."),
            AddressProblem::NotAbsolute => write!(f, "The base URL must be a full address starting with https:// ({EXAMPLE})."),
            AddressProblem::Scheme { scheme } => write!(f, "The base URL must start with https:// ({EXAMPLE}), not {scheme}://."),
            AddressProblem::QueryOrFragment => f.write_str("The base URL cannot have a query string (?…) or a fragment (#…): Agora adds the path it needs after it."),
            AddressProblem::Credentials => f.write_str("The base URL cannot contain a user name or password (user:password@): the API key field is where a key goes."),
            AddressProblem::Ipv6Unclosed => f.write_str("The base URL's IPv6 address is missing its closing ]."),
            AddressProblem::NoServerName => write!(f, "The base URL has no valid server name ({EXAMPLE})."),
            AddressProblem::Port => f.write_str("The base URL's port must be a number from 1 to 65535."),
            AddressProblem::Ipv6Loopback => f.write_str("Use http://localhost instead of http://[::1] (the same server): the page's security policy cannot name an IPv6 address."),
            AddressProblem::PlainHttp => write!(f, "The base URL must use https:// ({EXAMPLE}); plain http:// is only for a server on this machine (localhost or 127.0.0.1), so a key never crosses the network unencrypted."),
        }
    }
}

/// The origin (`https://api.openai.com`, `http://localhost:11434`) of a base URL a key may
/// be sent to, or why it may not be used.
pub fn key_origin(url: &str) -> Result<String, AddressProblem> {
    use AddressProblem as P;
    let url = url.trim();
    if url.is_empty() {
        return Err(P::Empty);
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return Err(P::Spaces);
    }
    let (scheme, rest) = url.split_once("://").ok_or(P::NotAbsolute)?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return Err(P::Scheme { scheme });
    }
    if rest.contains(['?', '#']) {
        return Err(P::QueryOrFragment);
    }
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.contains('@') {
        return Err(P::Credentials);
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (inside, after) = v6.split_once(']').ok_or(P::Ipv6Unclosed)?;
            (format!("[{}]", inside.to_ascii_lowercase()), after)
        }
        None => match authority.split_once(':') {
            Some((h, _)) => (h.to_ascii_lowercase(), &authority[h.len()..]),
            None => (authority.to_ascii_lowercase(), ""),
        },
    };
    let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => {
            !v6.is_empty()
                && v6
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || matches!(c, ':' | '.'))
        }
        None => {
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_'))
        }
    };
    if !host_ok {
        return Err(P::NoServerName);
    }
    let port = match port {
        "" => "",
        p => match p.strip_prefix(':').map(|n| (n, n.parse::<u16>())) {
            Some((n, Ok(v))) if v > 0 && !n.starts_with('+') => p,
            _ => return Err(P::Port),
        },
    };
    if scheme == "http" {
        match host.as_str() {
            "localhost" | "127.0.0.1" => {}
            "[::1]" => return Err(P::Ipv6Loopback),
            _ => return Err(P::PlainHttp),
        }
    }
    let default_port = if scheme == "https" { ":443" } else { ":80" };
    let port = if port == default_port { "" } else { port };
    Ok(format!("{scheme}://{host}{port}"))
}

#[cfg(test)]
mod tests {
    use super::{key_origin, AddressProblem as P};

    #[test]
    fn only_absolute_https_or_local_http_urls_may_receive_a_key() {
        for (url, origin) in [
            ("https://api.openai.com/v1", "https://api.openai.com"),
            ("HTTPS://API.Anthropic.com/v1/", "https://api.anthropic.com"),
            ("https://api.example.com:443/v1", "https://api.example.com"),
            (
                "https://api.example.com:8443",
                "https://api.example.com:8443",
            ),
            ("http://localhost:11434/v1", "http://localhost:11434"),
            ("http://127.0.0.1:8081/v1", "http://127.0.0.1:8081"),
            ("http://localhost/v1", "http://localhost"),
            (
                "https://[2001:db8::1]:8443/v1",
                "https://[2001:db8::1]:8443",
            ),
            (
                "https://generativelanguage.googleapis.com/v1beta",
                "https://generativelanguage.googleapis.com",
            ),
        ] {
            assert_eq!(key_origin(url).as_deref(), Ok(origin), "{url}");
        }
        let scheme = |s: &str| P::Scheme { scheme: s.into() };
        for (url, problem, words) in [
            ("", P::Empty, "Enter the base URL"),
            ("api.anthropic.com/v1", P::NotAbsolute, "full address"),
            ("//api.openai.com/v1", P::NotAbsolute, "full address"),
            ("/v1", P::NotAbsolute, "full address"),
            ("ftp://api.openai.com/v1", scheme("ftp"), "not ftp://"),
            (
                "javascript://x/%0aalert(1)",
                scheme("javascript"),
                "not javascript://",
            ),
            (
                "http://api.openai.com/v1",
                P::PlainHttp,
                "must use https://",
            ),
            (
                "http://192.168.1.10:8000/v1",
                P::PlainHttp,
                "must use https://",
            ),
            (
                "http://localhost.evil.example/v1",
                P::PlainHttp,
                "must use https://",
            ),
            (
                "http://127.0.0.1.nip.io/v1",
                P::PlainHttp,
                "must use https://",
            ),
            (
                "http://[::1]:8080/v1",
                P::Ipv6Loopback,
                "instead of http://[::1]",
            ),
            (
                "https://user:pass@api.openai.com/v1",
                P::Credentials,
                "user name or password",
            ),
            (
                "https://api.openai.com@evil.example/v1",
                P::Credentials,
                "user name or password",
            ),
            (
                "https://api.openai.com/v1?key=x",
                P::QueryOrFragment,
                "query string",
            ),
            (
                "https://api.openai.com/v1#x",
                P::QueryOrFragment,
                "query string",
            ),
            (
                "https://api.openai.com\\@evil.example/v1",
                P::Spaces,
                "backslashes",
            ),
            ("https://api.open ai.com/v1", P::Spaces, "backslashes"),
            ("https:///v1", P::NoServerName, "no valid server name"),
            (
                "https://exa<mple.com/v1",
                P::NoServerName,
                "no valid server name",
            ),
            ("https://api.openai.com:0/v1", P::Port, "port"),
            ("https://api.openai.com:99999/v1", P::Port, "port"),
            ("https://api.openai.com:/v1", P::Port, "port"),
            ("https://[::1/v1", P::Ipv6Unclosed, "closing ]"),
            ("https://[]/v1", P::NoServerName, "no valid server name"),
            (
                "https://[evil.example]/v1",
                P::NoServerName,
                "no valid server name",
            ),
        ] {
            let e = key_origin(url).unwrap_err();
            assert_eq!(e, problem, "{url}");
            assert!(e.to_string().contains(words), "{url}: {e}");
        }
    }
}
