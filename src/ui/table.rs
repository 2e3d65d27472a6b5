//! One renderer for every table of figures (the ledger's, a forecast's scores): columns
//! with a heading and an alignment, rows of cells. One view type for all of them, so each
//! new table costs its data, not another copy of the rendering code.

use leptos::prelude::*;

/// A cell: text, or a link that opens a route in the app.
pub enum Cell {
    Text(String),
    /// Text with a second, quieter line under it (a date under an outcome).
    Two(String, String),
    Link(String, super::state::Route),
    /// A row's heading (`<th scope="row">`).
    Head(String),
}

/// A column's heading and whether it holds numbers (right-aligned, tabular figures).
pub struct Column(pub &'static str, pub bool);

/// `name` names the table for assistive technology: its scroll box is a region a keyboard
/// can reach and scroll when the table is wider than the screen.
pub fn data_table(
    id: &'static str,
    name: &'static str,
    class: &'static str,
    caption: Option<String>,
    columns: Vec<Column>,
    rows: Vec<Vec<Cell>>,
) -> AnyView {
    let state = use_context::<super::state::AppState>();
    let numeric: Vec<bool> = columns.iter().map(|c| c.1).collect();
    let cell = move |i: usize, c: Cell| {
        let class = if numeric.get(i) == Some(&true) {
            "num"
        } else {
            ""
        };
        match c {
            Cell::Text(t) => view! { <td class=class>{t}</td> }.into_any(),
            Cell::Two(t, under) => {
                view! { <td class=class>{t}<span class="hint">{under}</span></td> }.into_any()
            }
            Cell::Head(t) => view! { <th scope="row" class=class>{t}</th> }.into_any(),
            Cell::Link(t, route) => {
                let go = route.clone();
                view! {
                    <td class=class><a href=super::app::href(&route) on:click=move |ev: leptos::ev::MouseEvent| {
                        if let Some(state) = state {
                            ev.prevent_default();
                            super::app::navigate(state, go.clone());
                        }
                    }>{t}</a></td>
                }
                .into_any()
            }
        }
    };
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label=name>
            <table class=format!("data-table {class}") id=id>
                {caption.map(|c| view! { <caption class="hint">{c}</caption> })}
                <thead><tr>{columns.into_iter().map(|c| view! {
                    <th scope="col" class=if c.1 { "num" } else { "" }>{c.0}</th>
                }).collect_view()}</tr></thead>
                <tbody>{rows.into_iter().map(|r| view! {
                    <tr>{r.into_iter().enumerate().map(|(i, c)| cell(i, c)).collect_view()}</tr>
                }).collect_view()}</tbody>
            </table>
        </div>
    }
    .into_any()
}
