//! Reading a file the user gives a debate as a source: plain text and Markdown as they are,
//! HTML as the text a reader sees (parsed by the browser's inert `DOMParser`: nothing in
//! it runs or loads), PDF through pdf.js (`www/pdf/`, imported only when a PDF is added).
//! A file that cannot be read is refused with why; nothing is uploaded anywhere.

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Document, DomParser, File, Node, SupportedType};

use crate::engine::sources::{Origin, Source};

/// Largest text or HTML file read: far above the longest source (`MAX_SOURCE_CHARS`)
/// once markup is taken out.
const MAX_TEXT_BYTES: f64 = 8.0 * 1024.0 * 1024.0;
/// Largest PDF read: a long report with figures.
const MAX_PDF_BYTES: f64 = 60.0 * 1024.0 * 1024.0;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Text,
    Html,
    Pdf,
}

fn kind(file: &File) -> Option<Kind> {
    let name = file.name().to_ascii_lowercase();
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match (ext, file.type_().as_str()) {
        ("pdf", _) | (_, "application/pdf") => Some(Kind::Pdf),
        ("html" | "htm" | "xhtml", _) | (_, "text/html") => Some(Kind::Html),
        ("txt" | "text" | "md" | "markdown" | "csv" | "tsv" | "json" | "rst" | "org", _) => {
            Some(Kind::Text)
        }
        (_, t) if t.starts_with("text/") => Some(Kind::Text),
        _ => None,
    }
}

fn title_from_name(name: &str) -> String {
    name.rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .replace(['_', '-'], " ")
}

/// The source a file gives, numbered `id`, or why it cannot be one.
pub async fn read(file: File, id: String) -> Result<Source, String> {
    let name = file.name();
    let Some(kind) = kind(&file) else {
        return Err(format!(
            "“{name}” is not a kind of file Agora reads as a source: plain text, Markdown, HTML or PDF."
        ));
    };
    let limit = if kind == Kind::Pdf {
        MAX_PDF_BYTES
    } else {
        MAX_TEXT_BYTES
    };
    if file.size() > limit {
        return Err(format!(
            "“{name}” is {:.1} MB; a source file may be up to {:.0} MB. Keep the part the debate is about.",
            file.size() / 1_048_576.0,
            limit / 1_048_576.0
        ));
    }
    let (title, text) = match kind {
        Kind::Pdf => pdf(&file, &name).await?,
        Kind::Text | Kind::Html => {
            let raw = JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| format!("“{name}” could not be read."))?;
            if looks_binary(&raw) {
                return Err(format!(
                    "“{name}” is not text, whatever its name says: it looks like a binary file."
                ));
            }
            if kind == Kind::Html {
                html(&raw, &name)?
            } else {
                (title_from_name(&name), raw)
            }
        }
    };
    Source::new(id, &title, Origin::File { name }, &text).map_err(|p| p.to_string())
}

/// A text decoded from something that is not text: NUL bytes, or many characters that
/// were not UTF-8.
fn looks_binary(text: &str) -> bool {
    let sample: Vec<char> = text.chars().take(65_536).collect();
    let bad = sample.iter().filter(|c| **c == '\u{FFFD}').count();
    sample.contains(&'\0') || bad * 50 > sample.len().max(1)
}

/// The text a reader of an HTML page sees (scripts, styles and templates left out, blocks
/// on lines of their own), and the page's title.
fn html(raw: &str, name: &str) -> Result<(String, String), String> {
    let refuse = || format!("“{name}” could not be read as HTML.");
    let parser = DomParser::new().map_err(|_| refuse())?;
    let doc: Document = parser
        .parse_from_string(raw, SupportedType::TextHtml)
        .map_err(|_| refuse())?;
    let mut out = String::new();
    if let Some(body) = doc.body() {
        walk(&body, &mut out);
    }
    let title = match doc.title().trim() {
        "" => title_from_name(name),
        t => t.to_string(),
    };
    Ok((title, tidy(&out)))
}

fn walk(node: &Node, out: &mut String) {
    let children = node.child_nodes();
    for i in 0..children.length() {
        let Some(child) = children.item(i) else {
            continue;
        };
        match child.node_type() {
            Node::TEXT_NODE => out.push_str(&child.text_content().unwrap_or_default()),
            Node::ELEMENT_NODE => {
                let tag = child.node_name().to_ascii_lowercase();
                if matches!(
                    tag.as_str(),
                    "script" | "style" | "template" | "noscript" | "svg" | "head" | "iframe"
                ) {
                    continue;
                }
                let block = matches!(
                    tag.as_str(),
                    "p" | "div"
                        | "section"
                        | "article"
                        | "header"
                        | "footer"
                        | "main"
                        | "aside"
                        | "nav"
                        | "blockquote"
                        | "pre"
                        | "ul"
                        | "ol"
                        | "li"
                        | "table"
                        | "tr"
                        | "h1"
                        | "h2"
                        | "h3"
                        | "h4"
                        | "h5"
                        | "h6"
                        | "figure"
                        | "figcaption"
                        | "dl"
                        | "dt"
                        | "dd"
                        | "hr"
                        | "br"
                );
                if block {
                    out.push_str("\n\n");
                }
                walk(&child, out);
                if block {
                    out.push_str("\n\n");
                }
            }
            _ => {}
        }
    }
}

/// Spaces within a line collapsed, blank lines between paragraphs kept single.
fn tidy(text: &str) -> String {
    text.split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// A PDF's text, page by page, through `www/pdf/agora-pdf.js`.
async fn pdf(file: &File, name: &str) -> Result<(String, String), String> {
    let bytes = JsFuture::from(file.array_buffer())
        .await
        .map_err(|_| format!("“{name}” could not be read."))?;
    let bytes = Uint8Array::new(&bytes);
    let module = async {
        let import: Function = Reflect::get(&js_sys::global(), &"agoraImport".into())?.unchecked_into();
        let p = import.call1(&JsValue::NULL, &"./pdf/agora-pdf.js".into())?;
        JsFuture::from(Promise::from(p)).await
    }
    .await
    .map_err(|_| "The PDF reader could not be loaded (are you offline, or was Agora updated since this page opened? Reload the page).".to_string())?;
    let read: Function = Reflect::get(&module, &"pdfText".into())
        .map_err(|_| "The PDF reader is missing its entry point.".to_string())?
        .unchecked_into();
    let answer = read
        .call1(&JsValue::NULL, &bytes)
        .map(Promise::from)
        .map_err(|_| format!("“{name}” could not be read as a PDF."))?;
    let value = JsFuture::from(answer).await.map_err(|e| {
        // The reader words its refusals (encrypted, not a PDF, only images).
        let why = e
            .as_string()
            .unwrap_or_else(|| "it could not be read".into());
        format!("“{name}”: {why}")
    })?;
    let text = Reflect::get(&value, &"text".into())
        .ok()
        .and_then(|t| t.as_string())
        .unwrap_or_default();
    let title = Reflect::get(&value, &"title".into())
        .ok()
        .and_then(|t| t.as_string())
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| title_from_name(name));
    Ok((title, text))
}
