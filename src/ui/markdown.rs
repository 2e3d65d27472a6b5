//! Markdown from models, rendered into DOM nodes straight from pulldown-cmark's events. No
//! HTML string is ever built: text is always a text node (raw HTML in the Markdown shows as
//! text), links survive only for http/https/mailto, and images are never loaded; they show
//! as their alt text with a link to open them.

use leptos::prelude::*;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use web_sys::{Document, Element};

use super::link_policy::safe_href;

fn el(doc: &Document, name: &str) -> Element {
    doc.create_element(name)
        .expect("create_element with a fixed tag name")
}

fn start(doc: &Document, tag: &Tag, images: &mut Vec<Option<String>>) -> Element {
    match tag {
        Tag::Paragraph => el(doc, "p"),
        // Turn text sits under the turn's own header: keep model headings below it.
        Tag::Heading { level, .. } => el(
            doc,
            match level {
                HeadingLevel::H1 | HeadingLevel::H2 => "h4",
                HeadingLevel::H3 => "h5",
                _ => "h6",
            },
        ),
        Tag::BlockQuote(_) => el(doc, "blockquote"),
        Tag::CodeBlock(_) => el(doc, "pre"),
        Tag::List(Some(start)) => {
            let ol = el(doc, "ol");
            if *start != 1 {
                let _ = ol.set_attribute("start", &start.to_string());
            }
            ol
        }
        Tag::List(None) => el(doc, "ul"),
        Tag::Item => el(doc, "li"),
        Tag::Emphasis => el(doc, "em"),
        Tag::Strong => el(doc, "strong"),
        Tag::Strikethrough => el(doc, "del"),
        Tag::Table(_) => el(doc, "table"),
        Tag::TableHead => el(doc, "thead"),
        Tag::TableRow => el(doc, "tr"),
        Tag::TableCell => el(doc, "td"),
        Tag::Link {
            dest_url, title, ..
        } => match safe_href(dest_url) {
            Some(href) => {
                let a = el(doc, "a");
                let _ = a.set_attribute("href", href);
                let _ = a.set_attribute("rel", "noopener noreferrer nofollow");
                let _ = a.set_attribute("target", "_blank");
                if !title.is_empty() {
                    let _ = a.set_attribute("title", title);
                }
                a
            }
            None => {
                let s = el(doc, "span");
                let _ = s.set_attribute("class", "md-unsafe-link");
                s
            }
        },
        Tag::Image { dest_url, .. } => {
            images.push(safe_href(dest_url).map(str::to_string));
            let s = el(doc, "span");
            let _ = s.set_attribute("class", "md-image");
            s.set_text_content(Some("Image: "));
            s
        }
        _ => el(doc, "span"),
    }
}

/// Replaces `root`'s children with the rendering of `text`.
pub fn render_into(root: &Element, text: &str) {
    let Some(doc) = root.owner_document() else {
        return;
    };
    root.set_text_content(None);
    let mut stack: Vec<Element> = vec![root.clone()];
    let mut images: Vec<Option<String>> = Vec::new();
    let text_node = |parent: &Element, t: &str| {
        let _ = parent.append_child(&doc.create_text_node(t));
    };
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for ev in Parser::new_ext(text, opts) {
        let top = stack.last().cloned().unwrap_or_else(|| root.clone());
        match ev {
            Event::Start(tag) => {
                let e = start(&doc, &tag, &mut images);
                let _ = top.append_child(&e);
                stack.push(e.clone());
                if matches!(tag, Tag::CodeBlock(_)) {
                    // <pre><code>: text goes into the code element on top.
                    let code = el(&doc, "code");
                    let _ = e.append_child(&code);
                    stack.push(code);
                }
            }
            Event::End(end) => {
                if stack.len() > 1 {
                    let closed = stack.pop();
                    if end == TagEnd::CodeBlock && stack.len() > 1 {
                        stack.pop();
                    }
                    if end == TagEnd::Image {
                        if let (Some(span), Some(Some(url))) = (closed, images.pop()) {
                            let a = el(&doc, "a");
                            let _ = a.set_attribute("href", &url);
                            let _ = a.set_attribute("rel", "noopener noreferrer nofollow");
                            let _ = a.set_attribute("target", "_blank");
                            a.set_text_content(Some(" (open)"));
                            let _ = span.append_child(&a);
                        }
                    }
                }
            }
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => text_node(&top, &t),
            Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                let c = el(&doc, "code");
                c.set_text_content(Some(&t));
                let _ = top.append_child(&c);
            }
            Event::SoftBreak => text_node(&top, " "),
            Event::HardBreak => {
                let _ = top.append_child(&el(&doc, "br"));
            }
            Event::Rule => {
                let _ = top.append_child(&el(&doc, "hr"));
            }
            Event::TaskListMarker(done) => text_node(&top, if done { "☑ " } else { "☐ " }),
            Event::FootnoteReference(label) => {
                let s = el(&doc, "sup");
                s.set_text_content(Some(&label));
                let _ = top.append_child(&s);
            }
        }
    }
}

/// Renders `text` as Markdown, again whenever it changes (each streamed token).
#[component]
pub fn Markdown(#[prop(into)] text: Signal<String>) -> impl IntoView {
    let node = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let t = text.get();
        if let Some(div) = node.get() {
            render_into(&div, &t);
        }
    });
    view! { <div class="md" node_ref=node></div> }
}
