//! Where the focus goes after an action removes or replaces what had it: the thing the user
//! is to deal with next (the connection just saved, the debate's heading after Start, Resume
//! after Stop, the next row after Delete), so a keyboard or screen reader user is never left
//! on nothing at the top of the page.

use std::time::Duration;

use leptos::prelude::set_timeout;
use wasm_bindgen::JsCast;

/// Tries for about three seconds, every 30 ms: what is to take the focus is often drawn a frame
/// or an await later than the action.
const TRIES: u32 = 100;

/// Focuses what `find` returns, once it returns something.
pub fn focus_when(find: impl Fn() -> Option<web_sys::HtmlElement> + 'static) {
    try_focus(std::rc::Rc::new(find), TRIES);
}

/// Focuses the first element that matches `selector`, once there is one.
pub fn focus_selector(selector: &'static str) {
    focus_when(move || query(selector).into_iter().next());
}

/// The elements that match `selector`, in document order.
pub fn query(selector: &str) -> Vec<web_sys::HtmlElement> {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let Ok(list) = doc.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

fn try_focus(find: std::rc::Rc<dyn Fn() -> Option<web_sys::HtmlElement>>, left: u32) {
    if let Some(el) = find() {
        let _ = el.focus();
        return;
    }
    if left > 0 {
        set_timeout(move || try_focus(find, left - 1), Duration::from_millis(30));
    }
}

/// Takes the focus from whatever has it.
pub fn blur_active() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.blur();
    }
}
