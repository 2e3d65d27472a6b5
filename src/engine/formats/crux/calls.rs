//! How crux makes its calls: a persona speaks (alone or several at once), the analyst
//! answers in JSON, and an answer that cannot be read is recorded as such.

use super::*;

impl Crux<'_> {
    /// Persona `i`'s call with the given system prompt and `user`; the caller adds its
    /// length and temperature.
    pub(super) fn say(
        &self,
        i: usize,
        path: String,
        label: impl Into<String>,
        system: String,
        user: String,
    ) -> CallSpec {
        CallSpec::new(path, self.voices[i].seat.clone(), Purpose::Argument, label)
            .system_and_user(system, user)
    }

    /// Persona `i` speaks: the call made, its text cleaned of banned openers.
    pub(super) async fn speak(
        &self,
        i: usize,
        spec: CallSpec,
    ) -> Result<(String, CallKey), DebateError> {
        let v = &self.voices[i];
        let out = self.ctx.call(spec).await?;
        Ok((persona::clean(&out.text, &v.name, &v.banned), out.key))
    }

    /// Several personas speak at once (a miniround, the openings, the closings).
    pub(super) async fn speak_all(
        &self,
        says: Vec<(usize, CallSpec)>,
    ) -> Result<Vec<(String, CallKey)>, DebateError> {
        let calls = says.into_iter().map(|(i, spec)| self.speak(i, spec));
        join_all(calls).await.into_iter().collect()
    }

    /// A call on the analyst seat: the analyst's system prompt and `user`; the caller
    /// adds its length, temperature and schema.
    pub(super) fn analysis(
        &self,
        path: String,
        purpose: Purpose,
        label: &str,
        user: String,
    ) -> CallSpec {
        CallSpec::new(path, self.config.analyst.clone(), purpose, label)
            .system_and_user(p::ANALYST_SYSTEM.trim(), user)
            .tolerate_failure()
    }

    /// Makes an analysis call and reads its answer with `read`: the value, or why the
    /// answer could not be read even after one repair.
    pub(super) async fn analyse<T>(
        &self,
        spec: CallSpec,
        read: impl Fn(&serde_json::Value) -> Result<T, Problem>,
    ) -> Attempt<T, Unread> {
        Ok(self.ctx.call_json(spec, read).await?.read)
    }

    /// An analysis answer that could not be read. Recorded standing on its own (no `about`),
    /// so it is not shown as a missing score under a persona's turn.
    pub(super) fn unscored(&self, key: String, what: String, reason: impl std::fmt::Display) {
        self.ctx.record(Finding {
            key,
            about: None,
            seat: String::new(),
            body: FindingBody::Unscored {
                what,
                reason: reason.to_string(),
            },
        });
    }
}
