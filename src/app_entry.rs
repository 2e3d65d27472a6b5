//! The app entry: mounts the Leptos app on the page's body.

pub fn start() {
    // A panic is a bug: say so in the console with its message and place. (The
    // console_error_panic_hook crate adds a JS stack trace for 1 KB of the bundle budget.)
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("Agora hit a bug: {info}").into());
    }));
    leptos::mount::mount_to_body(crate::ui::App);
}
