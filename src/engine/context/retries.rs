//! Retrying a failed call: backoff (or the provider's own wait) for what retrying can fix,
//! and for what it cannot, either the debate is held at the call until the user resumes, or,
//! where the format tolerates the failure, the call is recorded as failed and the format
//! goes on without it. Each attempt takes its own place on the connection, so a call
//! waiting out a backoff does not keep others from running.

use futures::future::{select, Either};

use super::super::event::{CallKey, EventKind};
use super::super::model::{ChatRequest, ErrorKind};
use super::super::rng;
use super::spec::{CallFailure, CallOutput, CallSpec};
use super::{Attempt, DebateCtx, DebateError};

/// At most this many refused forms per call (`SchemaForm::ALL` has five).
const FORMS: u32 = 5;

impl DebateCtx {
    /// Jitter for a retry: from the debate's seed, the call and the attempt, never from a
    /// shared generator (a retry must not change the debate's other random choices).
    fn jitter(&self, key: &CallKey, attempt: u32) -> f64 {
        rng::uniform(self.seed(), &format!("retry/{key}/{attempt}"))
    }

    pub(super) async fn with_retries(
        &self,
        key: &CallKey,
        spec: &CallSpec,
        request: &ChatRequest,
        hash: &str,
        wait: bool,
        queued: &mut bool,
    ) -> Attempt<CallOutput, CallFailure> {
        let mut attempt = 1;
        // A server refusing how a schema was sent moves its connection to the next form; the
        // forms are few, so this is bounded even if parallel calls are refused together.
        let mut refusals = 0;
        loop {
            let tried = match self.admit(key, spec, request, wait, queued).await? {
                Ok(admission) => {
                    let out = self.attempt(key, spec, request, hash).await;
                    drop(admission);
                    out
                }
                Err(e) => Err(e),
            };
            let mut e = match tried {
                Ok(out) => return Ok(Ok(out)),
                Err(e) if e.kind == ErrorKind::Cancelled => return Err(DebateError::Stopped),
                Err(e) if e.kind == ErrorKind::FormRefused && refusals < FORMS => {
                    refusals += 1;
                    continue;
                }
                Err(e) => e,
            };
            let max = self.retry.max_attempts;
            let delay = if e.retryable() && attempt < max {
                self.retry
                    .delay(attempt, e.retry_after_ms, self.jitter(key, attempt))
            } else {
                None
            };
            let Some(wait_ms) = delay else {
                if e.retryable() && attempt >= max && max > 1 {
                    e.message = format!("{} (gave up after {attempt} attempts)", e.message);
                } else if let (true, Some(ms)) = (e.retryable(), e.retry_after_ms) {
                    e.message =
                        format!("{} (the provider asks to wait {} s)", e.message, ms / 1000);
                }
                // A format may go on without a call it tolerates losing, but not past a key
                // or a model the provider refuses, nor past credit used up: every later call on that connection would
                // fail the same way, so the user is asked to fix it instead.
                // (A check beside a stream is still skipped: the next call on that connection
                // will hold the debate anyway, and the check would come after its speech.)
                let needs_user = wait
                    && matches!(
                        e.kind,
                        ErrorKind::Auth | ErrorKind::NotFound | ErrorKind::Billing
                    );
                if (spec.tolerate_failure && !needs_user) || e.kind == ErrorKind::Busy {
                    self.push(EventKind::CallSkipped {
                        call: key.clone(),
                        seat: spec.seat.clone(),
                        reason: e.message.clone(),
                        failed: e.kind != ErrorKind::Busy,
                    });
                    return Ok(Err(CallFailure {
                        key: key.clone(),
                        seat: spec.seat.clone(),
                        message: e.message,
                    }));
                }
                // Retrying cannot fix it now: hold the debate at this call, with everything
                // said so far, until the user fixes the cause and resumes.
                self.halt(&spec.seat, &e.message).await?;
                // Paused by the user while held: the call tried again waits too.
                self.wait_while_paused().await?;
                attempt = 1;
                continue;
            };
            attempt += 1;
            self.push(EventKind::RetryScheduled {
                call: key.clone(),
                attempt,
                max_attempts: max,
                wait_ms,
                reason: e.message.clone(),
            });
            if let Either::Right(_) = select(self.clock.sleep(wait_ms), self.stop.cancelled()).await
            {
                return Err(DebateError::Stopped);
            }
            // Offline, or paused by the user meanwhile: wait before trying again.
            self.wait_while_paused().await?;
        }
    }
}
