//! Each format's own screens, one folder per format, and the registry that lists them once.
//! The setup screen and the view's reducer ask `ui_for(format)` for what a format needs,
//! the debate screen `views_for(format)` for how it draws; none names a format. Adding a
//! format to the screens is its folder here (a `FormatUi` and a `FormatViews` constant),
//! one line in `FORMATS`, and its drawing's chunk (`chunk!` and `views_chunk`).

pub mod classic;
pub mod council;
pub mod crux;
pub mod duelogic;
pub mod forecast;

#[cfg(target_arch = "wasm32")]
pub use registry::*;

#[cfg(target_arch = "wasm32")]
mod registry {
    use leptos::prelude::*;

    use crate::engine::config::FormatId;
    use crate::engine::event::Purpose;
    use crate::engine::finding::Finding;
    use crate::engine::{CallKey, DebateConfig};
    use crate::ui::chunks::{chunk, Chunk};
    use crate::ui::seating::Seating;
    use crate::ui::state::TurnView;

    /// A format's setup form: its fields (kept while the user switches formats) and the
    /// debate they describe.
    pub trait SetupForm {
        fn view(&self) -> AnyView;
        /// The debate the form describes; `seating` turns a seat's connection and model
        /// choice into its participant (empty choices mean the debate's connection).
        fn build(&self, topic: &str, seating: &Seating) -> DebateConfig;
    }

    /// A turn as a format's decoration under it sees it.
    #[derive(Clone)]
    pub struct TurnCtx {
        pub call: CallKey,
        pub seat: String,
        pub view: TurnView,
    }

    /// What the first screen and the view's reducer need of one format. Its drawing on the
    /// debate screen is apart, in `FormatViews`, so that it goes to a chunk of its own and
    /// the setup screen does not wait for it (`ui::chunks`).
    pub struct FormatUi {
        pub id: FormatId,
        /// One sentence for the format picker.
        pub about: &'static str,
        pub form: fn() -> Box<dyn SetupForm>,
        /// Whether a finding not tied to a turn stands in the transcript (a format whose
        /// panel shows all its findings keeps them out of it).
        pub in_transcript: fn(&Finding) -> bool,
        /// Whether a call is shown folded, as an analysis call, rather than as a speech.
        pub folded: fn(Purpose) -> bool,
    }

    /// How a format draws a debate: only the debate screen reads it.
    pub struct FormatViews {
        pub id: FormatId,
        /// Shown above the transcript (panels, a deck, Listen…).
        pub panels: fn() -> AnyView,
        /// A finding drawn in this format's own way where it happened; `None` draws it as
        /// one plain line.
        pub finding: fn(&Finding) -> Option<AnyView>,
        /// What goes under a turn's text (a scorecard, a cut marker, fact checks).
        pub under_turn: fn(TurnCtx) -> AnyView,
        /// Extra classes of a turn (a crux-room turn is set apart).
        pub turn_class: fn(&CallKey) -> &'static str,
        /// A finding drawn on its own, for a link that opens on it (a crux card, a
        /// forecast); `None` where the format shares no finding alone.
        pub alone: fn(&Finding) -> Option<AnyView>,
    }

    /// Every format, in the order the picker offers them.
    pub const FORMATS: [FormatUi; 5] = [
        super::classic::UI,
        super::duelogic::UI,
        super::forecast::UI,
        super::crux::UI,
        super::council::UI,
    ];

    pub fn ui_for(id: FormatId) -> &'static FormatUi {
        FORMATS.iter().find(|f| f.id == id).unwrap_or(&FORMATS[0])
    }

    // Each format's drawing is a chunk of its own (`ui::chunks`): a debate's screen fetches
    // only its own format's, as soon as the debate's start is known (`DebateView`), beside
    // the debate screen's chunk rather than after it.
    chunk!(CLASSIC, classic_views, classic_views: &'static FormatViews => &super::classic::VIEWS);
    chunk!(DUELOGIC, duelogic_views, duelogic_views: &'static FormatViews => &super::duelogic::VIEWS);
    chunk!(FORECAST, forecast_views, forecast_views: &'static FormatViews => &super::forecast::VIEWS);
    chunk!(CRUX, crux_views, crux_views: &'static FormatViews => &super::crux::VIEWS);
    chunk!(COUNCIL, council_views, council_views: &'static FormatViews => &super::council::VIEWS);

    /// The chunk holding a format's drawing.
    pub fn views_chunk(id: FormatId) -> &'static Chunk<&'static FormatViews> {
        match id {
            FormatId::Classic => &CLASSIC,
            FormatId::Duelogic => &DUELOGIC,
            FormatId::Forecast => &FORECAST,
            FormatId::Crux => &CRUX,
            FormatId::Council => &COUNCIL,
            #[cfg(test)]
            FormatId::Probe => &CLASSIC,
        }
    }

    /// Fetches every format's drawing in the background.
    pub fn prefetch_views() {
        for format in &FORMATS {
            views_chunk(format.id).prefetch();
        }
    }

    /// A format's drawing, once its chunk is here (the debate screen draws what needs it
    /// only then).
    pub fn views_for(id: FormatId) -> Option<&'static FormatViews> {
        views_chunk(id).loaded()
    }

    // Defaults a format uses where it adds nothing of its own.
    pub fn no_panels() -> AnyView {
        ().into_any()
    }
    pub fn nothing_alone(_: &Finding) -> Option<AnyView> {
        None
    }
    pub fn plain_finding(_: &Finding) -> Option<AnyView> {
        None
    }
    pub fn every_finding(_: &Finding) -> bool {
        true
    }
    pub fn nothing_under(_: TurnCtx) -> AnyView {
        ().into_any()
    }
    pub fn no_class(_: &CallKey) -> &'static str {
        ""
    }
    /// Evaluations, checks and extractions are analysis: their result is shown where it
    /// belongs, the call itself folded.
    pub fn analysis_folded(purpose: Purpose) -> bool {
        matches!(
            purpose,
            Purpose::Evaluation | Purpose::Check | Purpose::Extraction
        )
    }
}
