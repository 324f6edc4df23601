//! The studio's guards and answers: a request is served only when its Host
//! names this server (no DNS rebinding), a write only when it comes from
//! the studio's own page (no cross-origin writes), a body only up to a
//! puzzle file's size; every answer carries the page's
//! Content-Security-Policy and says what went wrong in words.

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::sync::mpsc;
use std::time::Duration;

use engine::puzzle::MAX_FILE_BYTES;
use tiny_http::{Header, Method, Request, Response};

use super::page;

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

/// The value of the request's header `name`, if it has one.
pub fn header<'r>(request: &'r Request, name: &'static str) -> Option<&'r str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// Refuses a request whose Host is not this server's address: a page from
/// elsewhere whose name was pointed at the loopback (DNS rebinding) sends
/// its own name. Served on the loopback, `localhost` is this server too;
/// served on every address (`0.0.0.0`), any address written as numbers is.
pub fn check_host(request: &Request, addr: SocketAddr) -> Result<(), Refusal> {
    let Some(host) = header(request, "Host") else {
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
    let host = header(request, "Host").unwrap_or_default();
    if let Some(origin) = header(request, "Origin")
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
    if let Some(site) = header(request, "Sec-Fetch-Site")
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

/// A request's body, read: the text, or why it was refused (the request
/// comes back to be answered); `None` when it did not arrive within
/// [`BODY_TIME`] (the request was answered 408, or will be when its client
/// sends more or goes away).
pub type Body = Option<(Request, Result<String, Refusal>)>;

/// The request's body as text: at most a puzzle file's size
/// ([`MAX_FILE_BYTES`]), refused (413) past it before it is read when its
/// length is announced, and as soon as it passes it otherwise. It is read
/// on a thread of its own, and the handler waits for it at most
/// [`BODY_TIME`]: a client that sends its body slowly holds that thread and
/// its own socket, not one of the studio's handlers.
pub fn body(mut request: Request) -> Body {
    if request
        .body_length()
        .is_some_and(|n| n as u64 > MAX_FILE_BYTES)
    {
        return Some((request, Err(too_big())));
    }
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::Builder::new()
        .name("body".into())
        .stack_size(64 << 10)
        .spawn(move || {
            let read = read_body(&mut request);
            if let Err(mpsc::SendError((request, _))) = tx.send((request, read)) {
                refuse(request, late());
            }
        });
    if reader.is_err() {
        return None;
    }
    rx.recv_timeout(BODY_TIME).ok()
}

/// The request's body as text ([`body`]); None when the request was
/// answered instead (the body refused or too slow).
pub fn text_body(request: Request) -> Option<(Request, String)> {
    match body(request)? {
        (request, Ok(text)) => Some((request, text)),
        (request, Err(r)) => {
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

fn read_body(request: &mut Request) -> Result<String, Refusal> {
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::new(400, format!("the request's body cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes)
        .map_err(|e| Refusal::new(400, format!("the request's body is not UTF-8 text: {e}")))
}

/// A header; `name` and `value` are this program's own, so they are valid.
fn header_of(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

/// The headers every answer carries: the page's policy, no sniffing of
/// types, no referrer, no caching.
pub fn common_headers() -> Vec<Header> {
    [
        ("Content-Security-Policy", page::csp()),
        ("X-Content-Type-Options", "nosniff".to_string()),
        ("Referrer-Policy", "no-referrer".to_string()),
        ("Cache-Control", "no-store".to_string()),
    ]
    .iter()
    .filter_map(|(n, v)| header_of(n, v))
    .collect()
}

/// Answers `request` with `status`, a body of `content_type` and, for a
/// download, the file name it is saved as. A client that went away is no
/// error of ours.
pub fn send(request: Request, status: u16, content_type: &str, body: Vec<u8>, file: Option<&str>) {
    let mut response = Response::from_data(body).with_status_code(status);
    for h in common_headers() {
        response.add_header(h);
    }
    if let Some(h) = header_of("Content-Type", content_type) {
        response.add_header(h);
    }
    if let Some(name) = file
        && let Some(h) = header_of(
            "Content-Disposition",
            &format!("attachment; filename=\"{name}\""),
        )
    {
        response.add_header(h);
    }
    let _ = request.respond(response);
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

/// Answers a request that came while the server is at its most requests.
pub fn busy(request: Request) {
    refuse(
        request,
        Refusal::new(503, "the studio is answering too many requests; try again"),
    );
}
