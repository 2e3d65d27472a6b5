//! Markdown from models, rendered into DOM nodes from minimad's parsed lines. No HTML string
//! is ever built: text is always a text node (raw HTML in the Markdown shows as text), links
//! survive only for http/https/mailto, and images are never loaded; they show as their alt
//! text with a link to open them. A link shows where it goes before anyone clicks it: its
//! host beside its text (as the browser itself reads the URL, so `user@host` tricks and
//! look-alike letters show as they are), and the whole URL as its title.
//!
//! A streaming turn is rendered incrementally (see `md_blocks`): finished blocks once, only
//! the block being written again on each token, so a turn costs time linear in its length,
//! not quadratic.
//!
//! minimad rather than pulldown-cmark: pulldown-cmark's entity and case-folding tables cost
//! about 66 KB of the gzipped bundle; minimad covers what models write (paragraphs,
//! headings, nested lists, quotes, code, tables, emphasis) for a fraction of that.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;
use minimad::{CompositeStyle, Compound, Line, Options};
use web_sys::{Document, Element};

use super::link_policy::{split_links, Inline};
use super::md_blocks::Blocks;

fn el(doc: &Document, name: &str) -> Element {
    doc.create_element(name)
        .expect("create_element with a fixed tag name")
}

fn append_text(doc: &Document, parent: &Element, text: &str) {
    let _ = parent.append_child(&doc.create_text_node(text));
}

/// One styled run: nested em/strong/del/code elements around text and links. A quote a
/// debater marks `<quote>…</quote>` becomes a `q.src-quote` (the marks themselves are not
/// shown); `quote` is the one still open from an earlier run of the line.
fn compound(doc: &Document, parent: &Element, c: &Compound, quote: &mut Option<Element>) {
    let mut target = quote.clone().unwrap_or_else(|| parent.clone());
    for (on, tag) in [(c.bold, "strong"), (c.italic, "em"), (c.strikeout, "del")] {
        if on {
            let e = el(doc, tag);
            let _ = target.append_child(&e);
            target = e;
        }
    }
    if c.code {
        let code = el(doc, "code");
        code.set_text_content(Some(c.as_str()));
        let _ = target.append_child(&code);
        return;
    }
    let mut into = target.clone();
    for (text, mark) in quote_marks(c.as_str()) {
        inline(doc, &into, text);
        match mark {
            Some(QuoteMark::Open) => {
                let q = el(doc, "q");
                let _ = q.set_attribute("class", "src-quote");
                let _ = into.append_child(&q);
                into = q.clone();
                *quote = Some(q);
            }
            Some(QuoteMark::Close) => {
                *quote = None;
                into = target.clone();
            }
            None => {}
        }
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum QuoteMark {
    Open,
    Close,
}

/// `text` cut at each `<quote>` (or `<quote …>`: attributes a model copied are not shown)
/// and `</quote>`, in any case: the text before each mark, and the mark; the last piece
/// has none.
fn quote_marks(text: &str) -> Vec<(&str, Option<QuoteMark>)> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut at = 0;
    let mut from = 0;
    while let Some(i) = lower[from..].find('<').map(|i| from + i) {
        let rest = &lower[i..];
        let found = if rest.starts_with("</quote>") {
            Some((QuoteMark::Close, 8))
        } else if let Some(after) = rest.strip_prefix("<quote") {
            match after.chars().next() {
                Some('>') => Some((QuoteMark::Open, 7)),
                Some(c) if c.is_ascii_whitespace() => after
                    .find('>')
                    .filter(|&e| !after[..e].contains('<'))
                    .map(|e| (QuoteMark::Open, 6 + e + 1)),
                _ => None,
            }
        } else {
            None
        };
        match found {
            Some((mark, len)) => {
                out.push((&text[at..i], Some(mark)));
                at = i + len;
                from = at;
            }
            None => from = i + 1,
        }
    }
    out.push((&text[at..], None));
    out
}

/// Text and the links in it, appended to `target`.
fn inline(doc: &Document, target: &Element, text: &str) {
    for piece in split_links(text) {
        match piece {
            Inline::Text(t) => append_text(doc, target, t),
            Inline::Link { text, href, image } => {
                let shown = if image {
                    format!("Image: {text}")
                } else {
                    text.to_string()
                };
                match href {
                    Some(href) if image => {
                        let span = el(doc, "span");
                        let _ = span.set_attribute("class", "md-image");
                        span.set_text_content(Some(&shown));
                        let a = link(doc, href);
                        a.set_text_content(Some(" (open)"));
                        let _ = span.append_child(&a);
                        destination(doc, &span, &a, href);
                        let _ = target.append_child(&span);
                    }
                    Some(href) => {
                        let a = link(doc, href);
                        a.set_text_content(Some(&shown));
                        let _ = target.append_child(&a);
                        // A bare URL already shows where it goes.
                        if text.trim() != href {
                            destination(doc, target, &a, href);
                        }
                    }
                    None => {
                        let span = el(doc, "span");
                        let _ = span.set_attribute(
                            "class",
                            if image { "md-image" } else { "md-unsafe-link" },
                        );
                        span.set_text_content(Some(&shown));
                        let _ = target.append_child(&span);
                    }
                }
            }
        }
    }
}

/// The host a link goes to, in a muted span after it: the browser's own reading of the
/// URL (punycode for look-alike letters, the real host after a `user@`), or the address of
/// a mailto link.
fn destination(doc: &Document, parent: &Element, a: &Element, href: &str) {
    use wasm_bindgen::JsCast;
    let host = match a.dyn_ref::<web_sys::HtmlAnchorElement>() {
        Some(a) if a.protocol() == "mailto:" => a.pathname(),
        Some(a) => a.hostname(),
        None => String::new(),
    };
    let host = if host.is_empty() { href } else { &host };
    let span = el(doc, "span");
    let _ = span.set_attribute("class", "md-host");
    span.set_text_content(Some(&format!(" ({host})")));
    let _ = parent.append_child(&span);
}

fn link(doc: &Document, href: &str) -> Element {
    let a = el(doc, "a");
    let _ = a.set_attribute("href", href);
    let _ = a.set_attribute("title", href);
    let _ = a.set_attribute("rel", "noopener noreferrer nofollow");
    let _ = a.set_attribute("target", "_blank");
    a
}

fn compounds(doc: &Document, parent: &Element, cs: &[Compound]) {
    let mut quote = None;
    for c in cs {
        compound(doc, parent, c, &mut quote);
    }
}

/// Replaces `root`'s children with the rendering of `text`.
pub fn render_into(root: &Element, text: &str) {
    root.set_text_content(None);
    append_rendered(root, text);
}

/// Appends the rendering of `text` to `root`'s children, as elements only. Every block
/// (paragraph, list, quote, code, table) ends at an empty line, which is what lets
/// `md_blocks` cut a text there.
fn append_rendered(root: &Element, text: &str) {
    let Some(doc) = root.owner_document() else {
        return;
    };
    let parsed = minimad::parse_text(text, Options::default().keep_code_fences(false));
    // The open block being filled: paragraphs join lines, lists nest by level.
    let mut para: Option<Element> = None;
    let mut lists: Vec<(Element, bool)> = Vec::new();
    let mut quote: Option<Element> = None;
    let mut code: Option<Element> = None;
    let mut table: Option<Element> = None;
    for line in &parsed.lines {
        let style = match line {
            Line::Normal(c) => Some(c.style),
            _ => None,
        };
        let blank = matches!(line, Line::Normal(c) if c.style == CompositeStyle::Paragraph && c.compounds.iter().all(|x| x.as_str().trim().is_empty()));
        if !matches!(style, Some(CompositeStyle::Paragraph)) || blank {
            para = None;
        }
        if !matches!(
            style,
            Some(CompositeStyle::ListItem(_)) | Some(CompositeStyle::OrderedListItem { .. })
        ) {
            lists.clear();
        }
        if style != Some(CompositeStyle::Quote) {
            quote = None;
        }
        if style != Some(CompositeStyle::Code) {
            code = None;
        }
        if !matches!(line, Line::TableRow(_) | Line::TableRule(_)) {
            table = None;
        }
        if blank {
            continue;
        }
        match line {
            Line::Normal(c) => match c.style {
                CompositeStyle::Paragraph => match &para {
                    Some(p) => {
                        append_text(&doc, p, " ");
                        compounds(&doc, p, &c.compounds);
                    }
                    None => {
                        let p = el(&doc, "p");
                        compounds(&doc, &p, &c.compounds);
                        let _ = root.append_child(&p);
                        para = Some(p);
                    }
                },
                // Turn text sits under the turn's own header: keep model headings below it.
                CompositeStyle::Header(level) => {
                    let h = el(
                        &doc,
                        if level <= 2 {
                            "h4"
                        } else if level == 3 {
                            "h5"
                        } else {
                            "h6"
                        },
                    );
                    compounds(&doc, &h, &c.compounds);
                    let _ = root.append_child(&h);
                }
                CompositeStyle::ListItem(level) | CompositeStyle::OrderedListItem { level, .. } => {
                    let ordered = matches!(c.style, CompositeStyle::OrderedListItem { .. });
                    let depth = level.max(1) as usize;
                    while lists.len() > depth {
                        lists.pop();
                    }
                    if lists.len() == depth && lists[depth - 1].1 != ordered {
                        lists.pop();
                    }
                    while lists.len() < depth {
                        let list = el(&doc, if ordered { "ol" } else { "ul" });
                        if let (true, CompositeStyle::OrderedListItem { index, .. }) =
                            (lists.len() + 1 == depth, c.style)
                        {
                            if index != 1 {
                                let _ = list.set_attribute("start", &index.to_string());
                            }
                        }
                        let parent = lists
                            .last()
                            .and_then(|(l, _)| l.last_element_child())
                            .unwrap_or_else(|| root.clone());
                        let _ = parent.append_child(&list);
                        lists.push((list, ordered));
                    }
                    let li = el(&doc, "li");
                    compounds(&doc, &li, &c.compounds);
                    let _ = lists[depth - 1].0.append_child(&li);
                }
                CompositeStyle::Quote => {
                    let q = quote.get_or_insert_with(|| {
                        let q = el(&doc, "blockquote");
                        let _ = root.append_child(&q);
                        q
                    });
                    let p = el(&doc, "p");
                    compounds(&doc, &p, &c.compounds);
                    let _ = q.append_child(&p);
                }
                CompositeStyle::Code => {
                    let block = code.get_or_insert_with(|| {
                        let pre = el(&doc, "pre");
                        let inner = el(&doc, "code");
                        let _ = pre.append_child(&inner);
                        let _ = root.append_child(&pre);
                        inner
                    });
                    let line: String = c.compounds.iter().map(|x| x.as_str()).collect();
                    append_text(&doc, block, &line);
                    append_text(&doc, block, "\n");
                }
            },
            Line::TableRow(row) => {
                let t = table.get_or_insert_with(|| {
                    let t = el(&doc, "table");
                    let _ = root.append_child(&t);
                    t
                });
                let tr = el(&doc, "tr");
                for cell in &row.cells {
                    let td = el(&doc, "td");
                    compounds(&doc, &td, &cell.compounds);
                    let _ = tr.append_child(&td);
                }
                let _ = t.append_child(&tr);
            }
            Line::TableRule(_) => {}
            Line::HorizontalRule => {
                let _ = root.append_child(&el(&doc, "hr"));
            }
            Line::CodeFence(_) => {}
        }
    }
}

/// Above this size, the block being written is rendered at most every `THROTTLE_MS` (a
/// long code block or a paragraph without breaks has no cut to render incrementally).
const BIG_TAIL_BYTES: usize = 4096;
const THROTTLE_MS: u64 = 100;

/// What a `Markdown` element shows of its growing text.
#[derive(Default)]
struct Live {
    blocks: Blocks,
    /// The finished blocks rendered so far: their length in bytes and elements.
    done_bytes: usize,
    done_elements: u32,
    last_render_ms: f64,
    timer_pending: bool,
}

impl Live {
    /// Shows `text`, or returns false when it is better shown a little later (the caller
    /// then renders the latest text after `THROTTLE_MS`).
    fn show(&mut self, root: &Element, text: &str, may_wait: bool) -> bool {
        let (changed, stable) = self.blocks.feed(text);
        let now = js_sys::Date::now();
        if may_wait
            && !changed
            && text.len() - stable > BIG_TAIL_BYTES
            && now - self.last_render_ms < THROTTLE_MS as f64
        {
            return false;
        }
        self.last_render_ms = now;
        if changed {
            root.set_text_content(None);
            self.done_bytes = 0;
            self.done_elements = 0;
        }
        // The block being written (everything after the finished ones) is rendered again.
        while root.child_element_count() > self.done_elements {
            match root.last_element_child() {
                Some(last) => last.remove(),
                None => break,
            }
        }
        if stable > self.done_bytes {
            append_rendered(root, &text[self.done_bytes..stable]);
            self.done_bytes = stable;
            self.done_elements = root.child_element_count();
        }
        append_rendered(root, &text[stable..]);
        true
    }
}

/// Renders `text` as Markdown, again whenever it changes (each streamed token): only the
/// block being written is rendered again, and the final text is always shown.
#[component]
pub fn Markdown(#[prop(into)] text: Signal<String>) -> impl IntoView {
    let node = NodeRef::<leptos::html::Div>::new();
    let live = Rc::new(RefCell::new(Live::default()));
    Effect::new(move |_| {
        let Some(div) = node.get() else {
            return;
        };
        let shown = text.with(|t| live.borrow_mut().show(&div, t, true));
        if shown || live.borrow().timer_pending {
            return;
        }
        live.borrow_mut().timer_pending = true;
        let live = live.clone();
        set_timeout(
            move || {
                live.borrow_mut().timer_pending = false;
                // Whatever the text is by then (nothing if the turn is gone).
                text.try_with_untracked(|t| live.borrow_mut().show(&div, t, false));
            },
            Duration::from_millis(THROTTLE_MS),
        );
    });
    view! { <div class="md" node_ref=node></div> }
}
