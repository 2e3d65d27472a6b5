//! Copying text to the clipboard, for every Copy button.

use wasm_bindgen::JsCast;

/// Why a copy did not happen.
pub enum CopyError {
    /// No clipboard here (a page served over plain http from another machine).
    Unavailable,
    /// The browser refused (no permission, the page not focused).
    Refused,
}

/// `navigator.clipboard.writeText(text)`, looked up by name: where the page has no
/// clipboard (it is absent outside secure contexts) this says so instead of throwing.
pub async fn copy_text(text: &str) -> Result<(), CopyError> {
    let promise = (|| -> Option<js_sys::Promise> {
        let nav = js_sys::Reflect::get(&web_sys::window()?.into(), &"navigator".into()).ok()?;
        let clip = js_sys::Reflect::get(&nav, &"clipboard".into()).ok()?;
        let write: js_sys::Function = js_sys::Reflect::get(&clip, &"writeText".into())
            .ok()?
            .dyn_into()
            .ok()?;
        write.call1(&clip, &text.into()).ok()?.dyn_into().ok()
    })()
    .ok_or(CopyError::Unavailable)?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| CopyError::Refused)
}
