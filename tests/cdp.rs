//! Headless Chromium driven as a person drives it: pages opened, text typed,
//! buttons clicked, files downloaded and screenshots taken, over the Chrome
//! DevTools Protocol on a pipe (`--remote-debugging-pipe`: JSON messages
//! ended by NUL on the browser's file descriptors 3 and 4, which a shell
//! joins to its standard input and output). Without Chromium
//! (`/usr/bin/chromium`, or `$CHROMIUM`) the tests say they were skipped,
//! except in CI (`$CI` set), where its absence fails.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A browser with one page open.
pub struct Browser {
    child: Child,
    to: ChildStdin,
    from: Receiver<Value>,
    next: u64,
    session: String,
    _profile: tempfile::TempDir,
}

/// The browser, if there is one; None after saying why the tests skip.
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "no Chromium at {} in CI: .ci/run installs it",
        path.display()
    );
    eprintln!(
        "browser tests skipped: no Chromium at {} (apt-get install chromium, or set CHROMIUM)",
        path.display()
    );
    None
}

/// The flags of every headless Chromium the tests start: no sandbox, GPU,
/// first-run page or network of its own.
pub const HEADLESS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// What headless Chromium at `browser` shows of `url` once it settled
/// (`--dump-dom`, after `budget_ms` of the page's time), in a window of
/// `width` × `height`; its output and errors.
pub fn dump_dom(browser: &Path, url: &str, (width, height): (u32, u32), budget_ms: u32) -> Output {
    let profile = tempfile::tempdir().expect("a folder");
    Command::new(browser)
        .args(HEADLESS)
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--virtual-time-budget={budget_ms}"))
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("Chromium runs")
}

/// What the page reports of itself from its first moment: errors thrown,
/// and anything its Content-Security-Policy refused.
const WATCH: &str = "window.__seen = { errors: [], refused: [] };
window.addEventListener('error', (e) => window.__seen.errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.__seen.errors.push(String(e.reason)));
document.addEventListener('securitypolicyviolation', (e) => window.__seen.refused.push(e.violatedDirective + ' ' + e.blockedURI));";

impl Browser {
    /// Starts the browser (a window of `width` × `height`) with a blank
    /// page; None without Chromium.
    pub fn start(width: u32, height: u32) -> Option<Browser> {
        let browser = chromium()?;
        let profile = tempfile::tempdir().expect("a folder");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null"#)
            .arg(browser)
            .args(HEADLESS)
            .args(["--hide-scrollbars", "--remote-debugging-pipe"])
            .arg(format!("--window-size={width},{height}"))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Chromium starts");
        let to = child.stdin.take().expect("its pipe in");
        let out = child.stdout.take().expect("its pipe out");
        let (tx, from) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            let mut message = Vec::new();
            while r.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                message.pop();
                if let Ok(v) = serde_json::from_slice::<Value>(&message)
                    && tx.send(v).is_err()
                {
                    break;
                }
                message.clear();
            }
        });
        let mut b = Browser {
            child,
            to,
            from,
            next: 0,
            session: String::new(),
            _profile: profile,
        };
        let target = b.call(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let attached = b.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        b.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        b.page("Page.enable", json!({}));
        b.page(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": WATCH }),
        );
        b.page(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        );
        Some(b)
    }

    /// Sends `method` (to the page's session, or the browser's) and waits
    /// for its answer; events that come meanwhile are dropped.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            message["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&message).expect("JSON");
        bytes.push(0);
        self.to.write_all(&bytes).expect("the browser listens");
        loop {
            let v = self
                .from
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|e| panic!("no answer to {method}: {e}"));
            if v["id"].as_u64() == Some(id) {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
        }
    }

    /// Sends `method` to the page.
    pub fn page(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.call(Some(&session), method, params)
    }

    /// Opens `url` and waits until its document has loaded.
    pub fn open(&mut self, url: &str) {
        self.page("Page.navigate", json!({ "url": url }));
        self.wait("document.readyState === 'complete'", 30);
    }

    /// The value of `js` in the page (a promise is awaited); a throw fails
    /// the test.
    pub fn eval(&mut self, js: &str) -> Value {
        let r = self.page(
            "Runtime.evaluate",
            json!({ "expression": js, "awaitPromise": true, "returnByValue": true }),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{js}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Waits up to `seconds` for `js` to be true (not false, null, 0 or
    /// empty); its value.
    pub fn wait(&mut self, js: &str, seconds: u64) -> Value {
        let began = Instant::now();
        loop {
            let v = self.eval(&format!(
                "(() => {{ try {{ return ({js}); }} catch (e) {{ return null; }} }})()"
            ));
            let truthy = match &v {
                Value::Null | Value::Bool(false) => false,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            assert!(
                began.elapsed() < Duration::from_secs(seconds),
                "waited {seconds} s for {js}; the page says {}",
                self.eval("JSON.stringify({ status: document.getElementById('run-state') && document.getElementById('run-state').textContent, seen: window.__seen })")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks the element `selector` names (in the middle, as a mouse
    /// would); fails when there is none.
    pub fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({s}); if (!e) return null; e.scrollIntoView({{ block: 'center' }}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, e.disabled === true]; }})()",
            s = json!(selector)
        ));
        let [x, y, disabled] = [&at[0], &at[1], &at[2]];
        assert!(x.is_number(), "nothing to click at {selector}");
        assert_eq!(disabled, &json!(false), "{selector} is disabled");
        for kind in ["mousePressed", "mouseReleased"] {
            self.page(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Types `text` where the focus is, as a keyboard would insert it.
    pub fn type_text(&mut self, text: &str) {
        self.page("Input.insertText", json!({ "text": text }));
    }

    /// Lets the page download files into `dir`.
    pub fn downloads_to(&mut self, dir: &Path) {
        self.call(
            None,
            "Browser.setDownloadBehavior",
            json!({ "behavior": "allow", "downloadPath": dir.display().to_string() }),
        );
    }

    /// A PNG of the whole page, `width` pixels wide, written to `path`.
    pub fn screenshot(&mut self, path: &Path) {
        let shot = self.page(
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": true }),
        );
        let data = shot["data"].as_str().expect("a picture");
        use base64::Engine;
        let png = base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("base64");
        std::fs::write(path, png).expect("written");
    }

    /// What went wrong in the page so far: errors thrown and content its
    /// policy refused. Both must be empty.
    pub fn assert_clean(&mut self) {
        let seen = self.eval("window.__seen");
        assert_eq!(seen["errors"], json!([]), "errors in the page");
        assert_eq!(seen["refused"], json!([]), "refused by the page's policy");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
