//! The app entry: mounts the Leptos app on the page's body.

pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(crate::ui::App);
}
