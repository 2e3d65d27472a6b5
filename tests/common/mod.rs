//! What several native test files share.

/// Script answers for a classic debate with scoring and the fact checker: Position A gets
/// a full score (8, 6, 7, 9, 10), Position B's scorer never answers in JSON (so B is
/// unscored), and every fact check finds one supported claim.
#[allow(dead_code)] // not every test file scores
pub fn score_and_check_answers() -> Vec<serde_json::Value> {
    let scores = serde_json::json!({
        "logical_coherence": {"score": 8, "reason": "clear"},
        "evidence": {"score": 6, "reason": "thin"},
        "responsiveness": {"score": 7, "reason": "answered"},
        "persuasiveness": {"score": 9, "reason": "vivid"},
        "rule_adherence": {"score": 10, "reason": "kept"}
    })
    .to_string();
    let check = serde_json::json!({"claims": [
        {"claim": "Ghent cut traffic by 30%", "verdict": "supported", "reason": "city data"}
    ]})
    .to_string();
    vec![
        serde_json::json!({"path": "score/position-a", "text": scores}),
        serde_json::json!({"path": "score/position-b", "text": "I would rather not score."}),
        serde_json::json!({"path": "score/position-b/repair", "text": "Still no."}),
        serde_json::json!({"seat": "fact-checker", "text": check}),
    ]
}

/// A session's surroundings for native tests: the virtual clock, `store`, tasks on
/// `spawner`, `providers`, `lock` for Web Locks, a counting random source and the default
/// retry policy and bounds.
#[allow(dead_code)] // not every test file builds a session
pub fn session_env(
    clock: &agora::engine::clock::VirtualClock,
    store: std::rc::Rc<dyn agora::store::Store>,
    spawner: futures::executor::LocalSpawner,
    providers: agora::session::router::ProviderFactory,
    lock: agora::session::runner::LockDebate,
) -> agora::session::SessionEnv {
    use futures::task::LocalSpawnExt;
    let counter = std::rc::Rc::new(std::cell::Cell::new(0u64));
    agora::session::SessionEnv {
        lock,
        store,
        clock: std::rc::Rc::new(clock.clone()),
        spawn: std::rc::Rc::new(move |f| spawner.spawn_local(f).unwrap()),
        providers,
        random: std::rc::Rc::new(move || {
            counter.set(counter.get() + 1);
            counter.get() * 7919
        }),
        retry: Default::default(),
        limits: Default::default(),
        pace_calls: false,
    }
}
