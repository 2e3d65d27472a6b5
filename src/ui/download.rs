//! Saving a file the page made (an export) through the browser's download, from a Blob:
//! no server, no data: URL length limit.

use wasm_bindgen::JsCast;

fn fail<T>(_: T) -> String {
    "This browser could not save the file.".to_string()
}

pub fn save(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(&format!("{mime};charset=utf-8"));
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(fail)?;
    save_blob(name, &blob)
}

/// A binary file (the .zip of a folder export).
pub fn save_bytes(name: &str, mime: &str, bytes: &[u8]) -> Result<(), String> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts).map_err(fail)?;
    save_blob(name, &blob)
}

/// Downloads what an address holds (a `data:` URL a canvas made) under `name`.
pub fn save_url(name: &str, url: &str) -> Result<(), String> {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(fail)?.unchecked_into();
    a.set_href(url);
    a.set_download(name);
    a.click();
    Ok(())
}

fn save_blob(name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let url = web_sys::Url::create_object_url_with_blob(blob).map_err(fail)?;
    save_url(name, &url)?;
    // Revoked later: the download reads the Blob after `click` returns.
    leptos::task::spawn_local(async move {
        use crate::engine::clock::Clock;
        crate::session::browser::BrowserClock.sleep(60_000).await;
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    Ok(())
}
