//! The wasm module's start; everything else lives in the library so tests can reach it.
//! The app mounts when www/boot.js calls `startApp`; www/agora.js exports `runDebate`.
#[cfg(target_arch = "wasm32")]
fn main() {
    agora::app_entry::install_panic_hook();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Agora runs in the browser: build it with `trunk build --release` (see README.md).");
}
