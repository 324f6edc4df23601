//! The studio's guards and answers: a request is served only when its Host
//! names this server (no DNS rebinding), a write only when it comes from
//! the studio's own page (no cross-origin writes), a body only up to a
//! puzzle file's size; every answer carries the page's
//! Content-Security-Policy and says what went wrong in words.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use engine::puzzle::MAX_FILE_BYTES;

use super::page;
use super::wire::{BodyError, Method, Request};

/// A refusal: the status and the message that says why.
#[derive(Debug)]
pub struct Refusal {
    /// The HTTP status.
    pub status: u16,
    /// Why, in words.
    pub message: String,
}

impl Refusal {
    /// A refusal with `status` saying `message`.
    pub fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }
}

/// The address as a URL (`http://127.0.0.1:8737/`).
pub fn url(addr: SocketAddr) -> String {
    format!("http://{addr}/")
}

/// Refuses a request whose Host is not this server's address: a page from
/// elsewhere whose name was pointed at the loopback (DNS rebinding) sends
/// its own name. Served on the loopback, `localhost` is this server too;
/// served on every address (`0.0.0.0`), any address written as numbers is.
pub fn check_host(request: &Request, addr: SocketAddr) -> Result<(), Refusal> {
    let Some(host) = request.header("Host") else {
        return Err(Refusal::new(400, "the request has no Host header"));
    };
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    let ip = name
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .ok();
    let ours = port == Some(addr.port())
        && match ip {
            Some(ip) => ip == addr.ip() || (addr.ip().is_unspecified() && !ip.is_multicast()),
            None => name.eq_ignore_ascii_case("localhost") && addr.ip().is_loopback(),
        };
    if ours {
        Ok(())
    } else {
        Err(Refusal::new(
            421,
            format!(
                "the Host header `{}` is not this server's address ({addr}); open {}",
                engine::error::escape_controls(host),
                url(addr)
            ),
        ))
    }
}

/// Refuses a write (any method but GET and HEAD) from another site: a
/// browser names the page that sent it in `Origin` (and `Sec-Fetch-Site`),
/// and only the studio's own page may change anything.
pub fn check_origin(request: &Request) -> Result<(), Refusal> {
    if matches!(request.method(), Method::Get | Method::Head) {
        return Ok(());
    }
    let host = request.header("Host").unwrap_or_default();
    if let Some(origin) = request.header("Origin")
        && origin != format!("http://{host}")
    {
        return Err(Refusal::new(
            403,
            format!(
                "a write from another site ({}) is refused",
                engine::error::escape_controls(origin)
            ),
        ));
    }
    if let Some(site) = request.header("Sec-Fetch-Site")
        && !matches!(site, "same-origin" | "none")
    {
        return Err(Refusal::new(
            403,
            format!("a write from a {site} page is refused"),
        ));
    }
    Ok(())
}

/// How long a request's body may take to arrive, all of it: a client
/// that sends it more slowly is not waited for.
pub const BODY_TIME: Duration = Duration::from_secs(10);

/// The request's body as text: at most a puzzle file's size
/// ([`MAX_FILE_BYTES`]), refused (413) before it is read when its length
/// is announced longer, and 408 when it does not all arrive within
/// [`BODY_TIME`]. It is read on the request's own connection thread, so a
/// client that sends slowly holds only that.
fn read_text(request: &mut Request) -> Result<String, Refusal> {
    let bytes = request
        .body(MAX_FILE_BYTES, BODY_TIME)
        .map_err(|e| match e {
            BodyError::TooBig => too_big(),
            BodyError::Late => late(),
            BodyError::NoLength => Refusal::new(
                411,
                "the request's body must be sent with its Content-Length",
            ),
            BodyError::BadLength => {
                Refusal::new(400, "the request's Content-Length is not a number")
            }
            BodyError::Broken(e) => {
                Refusal::new(400, format!("the request's body cannot be read: {e}"))
            }
        })?;
    String::from_utf8(bytes)
        .map_err(|e| Refusal::new(400, format!("the request's body is not UTF-8 text: {e}")))
}

/// The request's body as text ([`read_text`]); None when the request was
/// answered instead (the body refused or too slow).
pub fn text_body(mut request: Request) -> Option<(Request, String)> {
    match read_text(&mut request) {
        Ok(text) => Some((request, text)),
        Err(r) => {
            refuse(request, r);
            None
        }
    }
}

/// The request's body read as the JSON of a `T` (`what` names one in the
/// refusal: "a run"); None when the request was answered instead.
pub fn json_body<T: serde::de::DeserializeOwned>(
    request: Request,
    what: &str,
) -> Option<(Request, T)> {
    let (request, text) = text_body(request)?;
    match serde_json::from_str(&text) {
        Ok(value) => Some((request, value)),
        Err(e) => {
            let why = format!("the request is not {what}'s JSON: {e}");
            refuse(request, Refusal::new(400, why));
            None
        }
    }
}

/// The refusal of a body that came too slowly.
fn late() -> Refusal {
    Refusal::new(
        408,
        format!(
            "the request's body did not arrive within {} s",
            BODY_TIME.as_secs()
        ),
    )
}

/// The refusal of a body over a puzzle file's size.
fn too_big() -> Refusal {
    Refusal::new(
        413,
        format!(
            "the request's body is over {}, the most a puzzle file may have",
            engine::budget::bytes(MAX_FILE_BYTES)
        ),
    )
}

/// The headers every answer carries: the page's policy, no sniffing of
/// types, no referrer, no caching.
pub fn common_headers() -> Vec<(&'static str, String)> {
    vec![
        ("Content-Security-Policy", page::csp()),
        ("X-Content-Type-Options", "nosniff".to_string()),
        ("Referrer-Policy", "no-referrer".to_string()),
        ("Cache-Control", "no-store".to_string()),
    ]
}

/// Answers `request` with `status`, a body of `content_type` and, for a
/// download, the file name it is saved as. A client that went away is no
/// error of ours.
pub fn send(request: Request, status: u16, content_type: &str, body: Vec<u8>, file: Option<&str>) {
    let mut headers = common_headers();
    headers.push(("Content-Type", content_type.to_string()));
    if let Some(name) = file {
        headers.push((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ));
    }
    request.respond(status, &headers, &body);
}

/// Answers with `value` as JSON.
pub fn json(request: Request, status: u16, value: &serde_json::Value) {
    let body = serde_json::to_vec(value).unwrap_or_default();
    send(
        request,
        status,
        "application/json; charset=utf-8",
        body,
        None,
    );
}

/// Answers with a refusal: its status and `{"error": message}`.
pub fn refuse(request: Request, refusal: Refusal) {
    json(
        request,
        refusal.status,
        &serde_json::json!({ "error": refusal.message }),
    );
}

/// Answers a connection that came while the server is at its most
/// connections, before its request is read.
pub fn busy(stream: std::net::TcpStream) {
    super::wire::answer_early(
        stream,
        503,
        "the studio is answering too many requests; try again",
    );
}
