//! The module's start: a panic hook. The app itself is mounted only when the page asks
//! (`startApp`, called by www/boot.js), so a page that imports the module for the JS API
//! (`runDebate`) or the widget gets no app in its body.

use std::cell::Cell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

thread_local! {
    /// The app is on this page: a panic then also gets the banner with Reload.
    static APP_MOUNTED: Cell<bool> = const { Cell::new(false) };
}

/// Mounts the Leptos app on the page's body (once).
#[wasm_bindgen(js_name = startApp)]
pub fn start_app() {
    if !APP_MOUNTED.replace(true) {
        leptos::mount::mount_to_body(crate::ui::App);
    }
}

pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        // The console gets the message and its place. (The console_error_panic_hook crate
        // would add a JS stack trace for 1 KB of the bundle.)
        web_sys::console::error_1(&format!("Agora hit a bug: {info}").into());
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        // A dependency's path starts with the build machine's registry directory: keep
        // only the crate's own part ("tachys-0.2.19/src/renderer/dom.rs").
        let place = info
            .location()
            .map(|l| {
                let file = l.file();
                let file = file
                    .split_once("/registry/src/")
                    .and_then(|(_, rest)| rest.split_once('/'))
                    .map_or(file, |(_, krate)| krate);
                format!(" ({file}:{})", l.line())
            })
            .unwrap_or_default();
        if APP_MOUNTED.get() {
            show_panic_banner(&format!("{message}{place}"));
        }
    }));
}

/// Tells the user the app has stopped, instead of leaving a page that silently no longer
/// answers. Plain DOM calls only: after a panic Leptos is gone (the release build aborts
/// right after this hook), and the Reload button is a bound `location.reload`, so clicking
/// it never calls into the stopped wasm. Fails quietly: a panic inside a panic hook would
/// only abort sooner.
fn show_panic_banner(message: &str) -> Option<()> {
    let doc = web_sys::window()?.document()?;
    let banner = match doc.get_element_by_id("panic") {
        // A second panic: show its message instead.
        Some(b) => {
            b.set_text_content(None);
            b
        }
        None => {
            let b = doc.create_element("div").ok()?;
            b.set_id("panic");
            b.set_class_name("panic-banner");
            b.set_attribute("role", "alert").ok()?;
            let parent: Element = match doc.body() {
                Some(body) => body.into(),
                None => doc.document_element()?,
            };
            parent.prepend_with_node_1(&b).ok()?;
            b
        }
    };
    let text = |tag: &str, content: &str| -> Option<Element> {
        let e = doc.create_element(tag).ok()?;
        e.set_text_content(Some(content));
        banner.append_child(&e).ok()?;
        Some(e)
    };
    text("strong", "Agora hit a bug and stopped.")?;
    text(
        "p",
        "Debates are saved as they happen: reload the page to go on.",
    )?;
    text("code", message)?;
    let button = text("button", "Reload")?;
    button.set_attribute("type", "button").ok()?;
    let location = web_sys::window()?.location();
    let reload = js_sys::Reflect::get(&location, &"reload".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?
        .bind0(&location);
    button
        .add_event_listener_with_callback("click", &reload)
        .ok()?;
    button.dyn_ref::<web_sys::HtmlElement>()?.focus().ok()?;
    Some(())
}
