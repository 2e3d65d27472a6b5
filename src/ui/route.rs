//! Which screen an address opens, and the address of each screen: read from the page's
//! query and fragment, printed as a query relative to the page (so an Agora served from a
//! sub-path keeps working). Plain Rust, tested natively.

/// A screen of the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    Setup,
    Debate(String),
    History,
    /// The forecast ledger.
    Ledger,
    /// The tournaments list and the set-up of a new one.
    Tournaments,
    /// One tournament.
    Tournament(String),
    /// A debate carried in a share link's fragment (`#share=1.…`).
    Shared,
    /// An example debate of the gallery (`?example=classic`), read from `examples/`.
    Example(String),
}

impl Route {
    /// The route of an address, from its query (`?debate=…`, with or without the `?`)
    /// and its fragment (`#share=…`). The first pair that names a screen wins; an empty
    /// id names none; anything else opens the setup.
    pub fn parse(query: &str, fragment: &str) -> Route {
        if fragment.trim_start_matches('#').starts_with("share=") {
            return Route::Shared;
        }
        let query = query.trim_start_matches('?');
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            let id = || (!value.is_empty()).then(|| value.to_string());
            let route = match (name.as_ref(), value.as_ref()) {
                ("debate", _) => id().map(Route::Debate),
                ("tournament", _) => id().map(Route::Tournament),
                ("example", _) => id().map(Route::Example),
                ("view", "history") => Some(Route::History),
                ("view", "ledger") => Some(Route::Ledger),
                ("view", "tournaments") => Some(Route::Tournaments),
                _ => None,
            };
            if let Some(r) = route {
                return r;
            }
        }
        Route::Setup
    }

    /// The query that opens this route (empty for the setup), ids encoded; `None` for a
    /// shared debate, which only opens from the address it came with.
    pub fn query(&self) -> Option<String> {
        let pair = |name: &str, value: &str| {
            let q = form_urlencoded::Serializer::new(String::new())
                .append_pair(name, value)
                .finish();
            format!("?{q}")
        };
        Some(match self {
            Route::Setup => String::new(),
            Route::History => pair("view", "history"),
            Route::Ledger => pair("view", "ledger"),
            Route::Tournaments => pair("view", "tournaments"),
            Route::Tournament(id) => pair("tournament", id),
            Route::Debate(id) => pair("debate", id),
            Route::Example(name) => pair("example", name),
            Route::Shared => return None,
        })
    }

    /// The tab's title on this route: which screen, and which debate (`topic`, when it is
    /// known), clipped to fit a tab.
    pub fn title(&self, topic: Option<&str>) -> String {
        let clip = |t: &str| {
            let t = t.trim();
            match t.char_indices().nth(70) {
                Some((i, _)) => format!("{}…", &t[..i]),
                None => t.to_string(),
            }
        };
        match (self, topic) {
            (Route::Setup, _) => "New debate · Agora".to_string(),
            (Route::History, _) => "History · Agora".to_string(),
            (Route::Ledger, _) => "Forecast ledger · Agora".to_string(),
            (Route::Tournaments, _) => "Tournaments · Agora".to_string(),
            (Route::Tournament(_), _) => "Tournament · Agora".to_string(),
            (Route::Debate(_), Some(t)) => format!("{} · Agora", clip(t)),
            (Route::Shared, Some(t)) => format!("Shared: {} · Agora", clip(t)),
            (Route::Example(_), Some(t)) => format!("Example: {} · Agora", clip(t)),
            (Route::Debate(_) | Route::Shared | Route::Example(_), None) => {
                "Debate · Agora".to_string()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tab_says_which_screen_and_which_debate_clipped_to_fit() {
        assert_eq!(
            Route::Ledger.title(Some("ignored")),
            "Forecast ledger · Agora"
        );
        assert_eq!(Route::Debate("d".into()).title(None), "Debate · Agora");
        assert_eq!(
            Route::Shared.title(Some(" Rent caps? ")),
            "Shared: Rent caps? · Agora"
        );
        let long = "é".repeat(100);
        let t = Route::Debate("d".into()).title(Some(&long));
        assert_eq!(t, format!("{}… · Agora", "é".repeat(70)));
    }

    #[test]
    fn every_route_prints_an_address_that_opens_it_again() {
        let all = [
            Route::Setup,
            Route::History,
            Route::Ledger,
            Route::Tournaments,
            Route::Tournament("t-1".into()),
            Route::Debate("d-1700000000000-ab12".into()),
            // An id with characters a query must escape.
            Route::Debate("a b&c=d/é#?+".into()),
            Route::Example("council".into()),
        ];
        for r in all {
            let q = r.query().unwrap();
            assert_eq!(Route::parse(&q, ""), r, "{q}");
        }
        assert_eq!(Route::History.query().as_deref(), Some("?view=history"));
        assert_eq!(
            Route::Debate("a b&c".into()).query().as_deref(),
            Some("?debate=a+b%26c")
        );
        assert_eq!(Route::Shared.query(), None);
    }

    #[test]
    fn addresses_open_the_screen_they_name() {
        assert_eq!(Route::parse("", ""), Route::Setup);
        assert_eq!(Route::parse("?view=nothing", ""), Route::Setup);
        assert_eq!(Route::parse("?debate=", ""), Route::Setup, "no empty id");
        assert_eq!(
            Route::parse("?utm=x&debate=d%201", ""),
            Route::Debate("d 1".into()),
            "encodeURIComponent's escapes read back"
        );
        assert_eq!(
            Route::parse("?debate=d1", "#share=1.abc"),
            Route::Shared,
            "a share link wins"
        );
        assert_eq!(Route::parse("view=ledger", ""), Route::Ledger);
        assert_eq!(
            Route::parse("?tournament=t9&view=history", ""),
            Route::Tournament("t9".into()),
            "the first pair that names a screen"
        );
    }

    /// The list www/shell.js is held to as well (tests/e2e/shell.test.mjs).
    #[test]
    fn the_shared_address_list_opens_the_screens_it_names() {
        let list: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/routes.json")).unwrap();
        for case in list["addresses"].as_array().unwrap() {
            let address = case["address"].as_str().unwrap();
            let (query, fragment) = address.split_at(address.find('#').unwrap_or(address.len()));
            let screen = match Route::parse(query, fragment) {
                Route::Setup => "setup",
                Route::History => "history",
                Route::Ledger => "ledger",
                Route::Tournaments => "tournaments",
                Route::Tournament(_) => "tournament",
                Route::Debate(_) => "debate",
                Route::Shared => "shared",
                Route::Example(_) => "example",
            };
            assert_eq!(screen, case["screen"], "{address}");
        }
    }
}
