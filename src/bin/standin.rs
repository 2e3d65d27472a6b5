//! An OpenAI-compatible stand-in that plays JSON scripts (the format of
//! `agora::engine::script`), for the browser and end-to-end tests. Standard library only.
//!
//! `agora-standin [--port N] [--script FILE]` prints `listening on http://127.0.0.1:PORT`.
//! Endpoints: `POST /v1/chat/completions` (streaming or not), `GET /v1/models`, and for tests
//! `POST /__script` (replace the script, reset counters), `GET /__log` (chat calls seen) and
//! `GET /__requests` (every request as received: method, target, headers and body text).
//! Calls are told apart by the `X-Agora-Call: seat;purpose;path` header Agora sends to
//! connections that ask for it.
//!
//! Streams are written in as few writes as the script allows: an answer without pauses
//! (`chunk_delay_ms` 0 and no fault) is one write, so a browser reads it in one go. A request
//! header `X-Standin-Keep-Alive-Ms: N` makes every pause of the stream (between chunks, and
//! a stall) send an SSE comment every N ms, as servers do to keep a connection open.
//! `{now_ms}` in a streamed chunk is replaced by the time it is written (milliseconds since
//! the epoch), so a benchmark can tell how long a token took to reach the screen.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    server::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod server {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use agora::engine::event::FinishReason;
    use agora::engine::script::{Fault, Plan, ScriptPlayer};
    use serde_json::{json, Value};

    struct Shared {
        player: ScriptPlayer,
        log: Vec<Value>,
        requests: Vec<Value>,
    }

    pub fn main() {
        let mut port = 0u16;
        let mut script = String::from("{}");
        let args: Vec<String> = std::env::args().collect();
        let mut i = 1;
        while i < args.len() {
            match args[i].as_str() {
                "--port" => port = args.get(i + 1).and_then(|p| p.parse().ok()).unwrap_or(0),
                "--script" => {
                    let path = args.get(i + 1).cloned().unwrap_or_default();
                    script = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                        eprintln!("cannot read script {path}: {e}");
                        std::process::exit(2)
                    });
                }
                other => {
                    eprintln!(
                        "unknown argument {other}; usage: agora-standin [--port N] [--script FILE]"
                    );
                    std::process::exit(2)
                }
            }
            i += 2;
        }
        let player = ScriptPlayer::parse(&script).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind 127.0.0.1");
        println!(
            "listening on http://127.0.0.1:{}",
            listener.local_addr().unwrap().port()
        );
        let _ = std::io::stdout().flush();
        let shared = Arc::new(Mutex::new(Shared {
            player,
            log: Vec::new(),
            requests: Vec::new(),
        }));
        for stream in listener.incoming().flatten() {
            // Each chunk leaves when it is written: with Nagle's algorithm a small write
            // can wait for the ACK of the one before, which would add the stand-in's own
            // delays to what the benchmarks measure of Agora.
            let _ = stream.set_nodelay(true);
            let shared = shared.clone();
            std::thread::spawn(move || {
                let _ = handle(stream, &shared);
            });
        }
    }

    struct HttpRequest {
        method: String,
        path: String,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    }

    impl HttpRequest {
        fn header(&self, name: &str) -> Option<&str> {
            self.headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        }
    }

    fn read_request(stream: &TcpStream) -> std::io::Result<HttpRequest> {
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or("").to_string();
        let path = parts.next().unwrap_or("/").to_string();
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let len = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse::<usize>().ok())
            .unwrap_or(0);
        let mut body = vec![0; len.min(16 * 1024 * 1024)];
        reader.read_exact(&mut body)?;
        Ok(HttpRequest {
            method,
            path,
            headers,
            body,
        })
    }

    const CORS: &str = "Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Headers: Authorization, Content-Type, X-Agora-Call, *\r\nAccess-Control-Allow-Methods: GET, POST, OPTIONS\r\nAccess-Control-Expose-Headers: *\r\n";

    fn respond(
        stream: &mut TcpStream,
        status: u16,
        extra: &str,
        content_type: &str,
        body: &str,
    ) -> std::io::Result<()> {
        let reason = match status {
            200 => "OK",
            204 => "No Content",
            400 => "Bad Request",
            401 => "Unauthorized",
            403 => "Forbidden",
            404 => "Not Found",
            429 => "Too Many Requests",
            500 => "Internal Server Error",
            502 => "Bad Gateway",
            503 => "Service Unavailable",
            _ => "Status",
        };
        write!(
            stream,
            "HTTP/1.1 {status} {reason}\r\n{CORS}{extra}Content-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )?;
        stream.flush()
    }

    fn handle(mut stream: TcpStream, shared: &Arc<Mutex<Shared>>) -> std::io::Result<()> {
        let req = read_request(&stream)?;
        if !req.path.starts_with("/__") && req.method != "OPTIONS" {
            let headers: serde_json::Map<String, Value> = req
                .headers
                .iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), Value::from(v.as_str())))
                .collect();
            shared.lock().unwrap().requests.push(json!({
                "method": req.method, "target": req.path, "headers": headers,
                "body": String::from_utf8_lossy(&req.body),
            }));
        }
        if req.method == "OPTIONS" {
            return respond(&mut stream, 204, "", "text/plain", "");
        }
        match (
            req.method.as_str(),
            req.path.split('?').next().unwrap_or(""),
        ) {
            ("GET", "/v1/models") => respond(
                &mut stream,
                200,
                "",
                "application/json",
                &json!({"object": "list", "data": [{"id": "standin", "object": "model"}]})
                    .to_string(),
            ),
            ("POST", "/__script") => {
                let text = String::from_utf8_lossy(&req.body).to_string();
                match ScriptPlayer::parse(&text) {
                    Ok(p) => {
                        let mut s = shared.lock().unwrap();
                        s.player = p;
                        s.log.clear();
                        s.requests.clear();
                        respond(&mut stream, 200, "", "application/json", "{\"ok\":true}")
                    }
                    Err(e) => respond(&mut stream, 400, "", "text/plain", &e),
                }
            }
            ("GET", "/__requests") => {
                let all = Value::Array(shared.lock().unwrap().requests.clone()).to_string();
                respond(&mut stream, 200, "", "application/json", &all)
            }
            ("GET", "/__log") => {
                let log = Value::Array(shared.lock().unwrap().log.clone()).to_string();
                respond(&mut stream, 200, "", "application/json", &log)
            }
            ("POST", p) if p.ends_with("/chat/completions") => chat(stream, &req, shared),
            _ => respond(
                &mut stream,
                404,
                "",
                "application/json",
                "{\"error\":{\"message\":\"no such endpoint\"}}",
            ),
        }
    }

    fn chat(
        mut stream: TcpStream,
        req: &HttpRequest,
        shared: &Arc<Mutex<Shared>>,
    ) -> std::io::Result<()> {
        let body: Value = match serde_json::from_slice(&req.body) {
            Ok(v) => v,
            Err(e) => {
                return respond(
                    &mut stream,
                    400,
                    "",
                    "application/json",
                    &json!({"error": {"message": format!("body is not JSON: {e}")}}).to_string(),
                )
            }
        };
        let call = req.header("x-agora-call").unwrap_or("unknown;argument;");
        let mut parts = call.splitn(3, ';');
        let (seat, purpose, path) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        let json_mode = body.pointer("/response_format/type").is_some();
        // OpenRouter's search tool or OpenAI's search options: the call asked to search.
        let searching = body.get("web_search_options").is_some()
            || body
                .get("tools")
                .and_then(Value::as_array)
                .is_some_and(|t| t.iter().any(|t| t["type"] == "openrouter:web_search"));
        let streaming = body.get("stream").and_then(Value::as_bool).unwrap_or(false);
        let plan = {
            let mut s = shared.lock().unwrap();
            s.log.push(json!({
                "seat": seat, "purpose": purpose, "path": path,
                "model": body.get("model"), "messages": body.get("messages"),
                "max_tokens": body.get("max_tokens"), "authorized": req.header("authorization").is_some(),
                "search": searching,
            }));
            // OpenAI's form, llama.cpp's (`json_object` with a `schema`) or Ollama's `format`.
            let schema = body
                .pointer("/response_format/json_schema/schema")
                .or_else(|| body.pointer("/response_format/schema"))
                .or_else(|| body.get("format").filter(|f| f.is_object()));
            s.player.plan(seat, purpose, path, json_mode, schema)
        };
        let model = body
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or("standin")
            .to_string();
        std::thread::sleep(Duration::from_millis(plan.first_delay_ms));
        if let Some(Fault::Status {
            status,
            headers,
            body,
        }) = &plan.fault
        {
            let extra: String = headers
                .iter()
                .map(|(k, v)| format!("{k}: {v}\r\n"))
                .collect();
            let msg = body
                .clone()
                .unwrap_or_else(|| format!("scripted failure {status}"));
            // A JSON object is a provider's own error body, sent as it is (as each provider
            // documents it); other text becomes the message of an OpenAI-style error.
            let sent = match serde_json::from_str::<Value>(&msg) {
                Ok(v) if v.is_object() => msg,
                _ => json!({"error": {"message": msg}}).to_string(),
            };
            return respond(&mut stream, *status, &extra, "application/json", &sent);
        }
        if !streaming {
            let text = plan.chunks.concat();
            let out = json!({"id": "standin", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]});
            return respond(&mut stream, 200, "", "application/json", &out.to_string());
        }
        let keep_alive_ms = req
            .header("x-standin-keep-alive-ms")
            .and_then(|v| v.parse().ok());
        stream_answer(stream, &plan, &model, keep_alive_ms, searching)
    }

    /// Writes the stream. Bytes are held until the next pause, so an answer with no pauses
    /// (`chunk_delay_ms` 0, no fault) leaves in one write and reaches the browser in one read.
    fn stream_answer(
        mut stream: TcpStream,
        plan: &Plan,
        model: &str,
        keep_alive_ms: Option<u64>,
        searching: bool,
    ) -> std::io::Result<()> {
        let mut out = format!("HTTP/1.1 200 OK\r\n{CORS}Content-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n");
        // Sends what is held, then waits, with an SSE comment every `keep_alive_ms` if asked.
        // Pauses between chunks are kept against the clock, not one after another, so an
        // answer of many chunks ends when its script says even when each sleep runs a little
        // long. A stall (`paced` false) lasts its whole length from the last byte sent.
        let mut due = std::time::Instant::now();
        let mut pause = |out: &mut String, ms: u64, paced: bool| -> std::io::Result<()> {
            stream.write_all(out.as_bytes())?;
            stream.flush()?;
            out.clear();
            if !paced {
                due = std::time::Instant::now();
            }
            if keep_alive_ms.is_none() {
                due += Duration::from_millis(ms);
                std::thread::sleep(due.saturating_duration_since(std::time::Instant::now()));
                return Ok(());
            }
            let mut left = ms;
            while left > 0 {
                let step = keep_alive_ms.map_or(left, |k| k.clamp(1, left));
                std::thread::sleep(Duration::from_millis(step));
                left -= step;
                if keep_alive_ms.is_some() {
                    stream.write_all(b": keep-alive\n\n")?;
                    stream.flush()?;
                }
            }
            Ok(())
        };
        let (chunks, ending) = match &plan.fault {
            Some(Fault::Cut { cut_after_bytes }) => (plan.chunks_up_to(*cut_after_bytes), Some(0)),
            Some(Fault::Stall {
                stall_after_bytes,
                stall_ms,
            }) => (plan.chunks_up_to(*stall_after_bytes), Some(*stall_ms)),
            _ => (plan.chunks.clone(), None),
        };
        let chunk = |delta: Value, finish: Value| {
            json!({"id": "standin", "object": "chat.completion.chunk", "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        };
        out += &format!(
            "data: {}\n\n",
            chunk(json!({"role": "assistant", "content": ""}), Value::Null)
        );
        for (i, c) in chunks.iter().enumerate() {
            if i > 0 && plan.chunk_delay_ms > 0 {
                pause(&mut out, plan.chunk_delay_ms, true)?;
            }
            let c = stamped(c);
            out += &format!("data: {}\n\n", chunk(json!({"content": c}), Value::Null));
        }
        // Until the client hangs up (a write fails): Agora's own bounds must end it.
        while plan.endless && ending.is_none() {
            for c in &chunks {
                out += &format!("data: {}\n\n", chunk(json!({"content": c}), Value::Null));
                pause(&mut out, plan.chunk_delay_ms, true)?;
            }
        }
        if let Some(stall) = ending {
            return pause(&mut out, stall, false); // dropped without [DONE]: a cut stream
        }
        if searching && !plan.citations.is_empty() {
            let annotations: Vec<Value> = plan
                .citations
                .iter()
                .map(|c| json!({"type": "url_citation", "url_citation": {"url": c.url, "title": c.title, "content": c.cited_text, "start_index": 0, "end_index": 0}}))
                .collect();
            out += &format!(
                "data: {}\n\n",
                chunk(json!({"annotations": annotations}), Value::Null)
            );
        }
        let finish = if plan.finish == FinishReason::Length {
            "length"
        } else {
            "stop"
        };
        out += &format!("data: {}\n\n", chunk(json!({}), json!(finish)));
        if let Some(u) = plan.usage {
            let usage = json!({"id": "standin", "object": "chat.completion.chunk", "model": model, "choices": [],
                "usage": {"prompt_tokens": u.input_tokens, "completion_tokens": u.output_tokens, "total_tokens": u.input_tokens + u.output_tokens}});
            out += &format!("data: {usage}\n\n");
        }
        out += "data: [DONE]\n\n";
        pause(&mut out, 0, true)
    }

    /// The chunk with `{now_ms}` replaced by the time now. The chunk leaves when the held
    /// bytes are next written, at the following pause: within a millisecond of this.
    fn stamped(c: &str) -> std::borrow::Cow<'_, str> {
        if !c.contains("{now_ms}") {
            return c.into();
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        c.replace("{now_ms}", &now.to_string()).into()
    }
}
