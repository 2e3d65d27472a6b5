//! Mounts the app; everything else lives in the library so tests can reach it.
#[cfg(target_arch = "wasm32")]
fn main() {
    agora::app_entry::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Agora runs in the browser: build it with `trunk build --release` (see README.md).");
}
