//! The `<agora-debate>` widget's Rust side: one debate view mounted inside the element's
//! shadow root (www/agora.js defines the element and calls `mountWidget`). A recorded
//! debate (an export's JSON, or a share link's fragment) is shown read-only and calls
//! nothing; a live one runs the configuration `runDebate` takes on a session of the
//! widget's own. Events reach the host page as DOM events on the element, through
//! `dispatch(name, detail)`.

mod dispatch;
mod view;

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use self::dispatch::Dispatch;
use self::view::WidgetView;
use super::app::SessionHandle;
use super::state::DebateView;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WidgetOptions {
    /// Where Agora is hosted (share links made in the widget open there).
    app_url: String,
    /// An export's JSON text.
    #[serde(default)]
    recorded: Option<String>,
    /// A share link's fragment (`share=1.…`).
    #[serde(default)]
    share: Option<String>,
    /// A live debate: what `runDebate` takes.
    #[serde(default)]
    request: Option<serde_json::Value>,
    /// Keep the widget's debates in the host page's IndexedDB (off: in memory only).
    #[serde(default)]
    keep: bool,
    /// Start at once instead of showing Start.
    #[serde(default)]
    autostart: bool,
    /// The visitor types the connections' keys (set only by www/frame.js: in the frame on
    /// Agora's own origin, where the host page's scripts cannot read them).
    #[serde(default)]
    ask_keys: bool,
}

/// A mounted widget; `unmount` (called when the element leaves the page) stops its debate
/// and removes its view.
#[wasm_bindgen]
pub struct Widget {
    mounted: Option<Box<dyn std::any::Any>>,
    /// The view's debate (its signals live in the mount's owner, freed with it).
    debate: Rc<Cell<Option<DebateView>>>,
    /// Cleared on unmount: a Start still opening its store then runs nothing.
    alive: Rc<Cell<bool>>,
}

#[wasm_bindgen]
impl Widget {
    pub fn unmount(&mut self) {
        self.alive.set(false);
        if let Some(d) = self.debate.take() {
            d.stop();
        }
        // Dropping the mount removes the view and frees everything created in it.
        self.mounted.take();
    }
}

#[wasm_bindgen(js_name = mountWidget)]
pub fn mount_widget(
    root: web_sys::HtmlElement,
    options: JsValue,
    dispatch: js_sys::Function,
) -> Result<Widget, JsValue> {
    let value: serde_json::Value = serde_wasm_bindgen::from_value(options).map_err(|e| {
        js_sys::TypeError::new(&format!("The widget's options are not plain data: {e}"))
    })?;
    let options: WidgetOptions = serde_json::from_value(value)
        .map_err(|e| js_sys::TypeError::new(&format!("The widget's options are not valid: {e}")))?;
    let dispatch = Dispatch(dispatch);
    let (debate, alive) = (Rc::new(Cell::new(None)), Rc::new(Cell::new(true)));
    let (view_debate, view_alive) = (debate.clone(), alive.clone());
    let handle = leptos::mount::mount_to(root, move || {
        // Created inside the mount, so unmounting frees them.
        // No app shell around it: only the debate view's own state.
        let d = DebateView::new(SessionHandle::new());
        d.share_base.set_value(Some(options.app_url.clone()));
        view_debate.set(Some(d));
        provide_context(d);
        view! { <WidgetView options dispatch alive=view_alive/> }
    });
    Ok(Widget {
        mounted: Some(Box::new(handle)),
        debate,
        alive,
    })
}
