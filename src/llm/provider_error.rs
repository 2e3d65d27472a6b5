//! What a provider's refusal means for the user, read from its status and the error body
//! each provider documents (OpenAI and the OpenAI-compatible servers: `error.code` and
//! `error.type`; Anthropic: `error.type`; Gemini: `error.status` and `error.details[].reason`;
//! OpenRouter: status 402 for credits), so that a billing outage is not shown as a dead
//! model, nor an unknown model as a wrong key.

use serde_json::Value;

use crate::engine::model::{kind_for_status, ErrorKind};

/// A refusal, read: what kind it is, and what the user should do about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub kind: ErrorKind,
    pub advice: &'static str,
}

const AUTH: &str = "Check the API key for this connection.";
const BILLING: &str = "The account's credit or quota is used up: add credit or raise the limit with the provider, then resume. Trying again will not help until then.";
const UNKNOWN_MODEL: &str = "The provider does not know this model: check its name (Edit connection lists the provider's models where it can) and the base URL.";
const TOO_LARGE: &str = "The request is larger than this model takes: choose a model with a larger context window, or give this connection a smaller context window so Agora shortens its prompts.";
const OVERLOADED: &str = "The provider is overloaded for everyone just now (not a limit of this account): Agora tries again; if it lasts, try later or another model.";
const RATE_LIMITED: &str = "The provider is rate-limiting requests.";
const SERVER: &str = "The provider had a problem on its side.";
const REJECTED: &str = "The provider rejected the request.";

/// The fields an error body may name its cause by, lower-cased: `type`, `code` and
/// `status` of its `error` object, and the `reason` of each of Gemini's details.
fn markers(body: &Value) -> (Vec<String>, String) {
    let error = body.get("error").unwrap_or(body);
    let mut names: Vec<String> = ["type", "code", "status"]
        .iter()
        .filter_map(|k| error.get(*k))
        .map(|v| match v {
            Value::String(s) => s.to_lowercase(),
            other => other.to_string(),
        })
        .collect();
    if let Some(details) = error.get("details").and_then(Value::as_array) {
        names.extend(
            details
                .iter()
                .filter_map(|d| d.get("reason").and_then(Value::as_str))
                .map(str::to_lowercase),
        );
    }
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str())
        .unwrap_or_default()
        .to_lowercase();
    (names, message)
}

/// Reads a non-2xx answer: `body` is its text as received (JSON or not).
pub fn read(status: u16, body: &str) -> Reading {
    let value = serde_json::from_str::<Value>(body).unwrap_or(Value::Null);
    let (names, message) = markers(&value);
    let named = |any: &[&str]| names.iter().any(|n| any.contains(&n.as_str()));
    let says = |any: &[&str]| any.iter().any(|m| message.contains(m));
    let reading = |kind, advice| Reading { kind, advice };
    // Money first: OpenAI sends it as a 429, Anthropic as a 400 or a 402, OpenRouter as
    // a 402; none of them clears by waiting.
    if status == 402
        || named(&["billing_error", "insufficient_quota"])
        || says(&[
            "credit balance is too low",
            "insufficient credits",
            "insufficient balance",
        ])
        || (named(&["failed_precondition"]) && says(&["billing"]))
    {
        return reading(ErrorKind::Billing, BILLING);
    }
    if status == 413
        || named(&[
            "request_too_large",
            "context_length_exceeded",
            "string_above_max_length",
        ])
        || says(&[
            "prompt is too long",
            "maximum context length",
            "context window",
            "exceeds the maximum number of tokens",
        ])
    {
        return reading(ErrorKind::TooLarge, TOO_LARGE);
    }
    if named(&["model_not_found", "not_found_error", "not_found"])
        || (status == 404 && !named(&["invalid_api_key"]))
        || says(&[
            "is not a valid model",
            "does not exist or you do not have access",
        ])
    {
        return reading(ErrorKind::NotFound, UNKNOWN_MODEL);
    }
    if matches!(status, 401 | 403)
        || named(&[
            "authentication_error",
            "permission_error",
            "invalid_api_key",
            "api_key_invalid",
            "unauthenticated",
            "permission_denied",
        ])
        || says(&["api key not valid", "incorrect api key"])
    {
        return reading(ErrorKind::Auth, AUTH);
    }
    if status == 529 || named(&["overloaded_error", "unavailable"]) || says(&["overloaded"]) {
        return reading(ErrorKind::Server, OVERLOADED);
    }
    match kind_for_status(status) {
        ErrorKind::RateLimited => reading(ErrorKind::RateLimited, RATE_LIMITED),
        ErrorKind::Server => reading(ErrorKind::Server, SERVER),
        kind => reading(kind, REJECTED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each provider's documented error bodies, as its API sends them.
    #[test]
    fn each_providers_refusals_read_as_what_the_user_must_do() {
        let cases: &[(&str, u16, &str, ErrorKind, &str)] = &[
            // OpenAI (and OpenAI-compatible servers).
            (
                "openai key",
                401,
                r#"{"error":{"message":"Incorrect API key provided: sk-…","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#,
                ErrorKind::Auth,
                AUTH,
            ),
            (
                "openai quota",
                429,
                r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
                ErrorKind::Billing,
                BILLING,
            ),
            (
                "openai rate",
                429,
                r#"{"error":{"message":"Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 500.","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#,
                ErrorKind::RateLimited,
                RATE_LIMITED,
            ),
            (
                "openai model",
                404,
                r#"{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#,
                ErrorKind::NotFound,
                UNKNOWN_MODEL,
            ),
            (
                "openai context",
                400,
                r#"{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
                ErrorKind::TooLarge,
                TOO_LARGE,
            ),
            (
                "openai server",
                500,
                r#"{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}"#,
                ErrorKind::Server,
                SERVER,
            ),
            (
                "openai overloaded",
                503,
                r#"{"error":{"message":"The engine is currently overloaded, please try again later.","type":"server_error","param":null,"code":null}}"#,
                ErrorKind::Server,
                OVERLOADED,
            ),
            // Anthropic.
            (
                "anthropic key",
                401,
                r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
                ErrorKind::Auth,
                AUTH,
            ),
            (
                "anthropic billing",
                402,
                r#"{"type":"error","error":{"type":"billing_error","message":"Your account has a billing issue."}}"#,
                ErrorKind::Billing,
                BILLING,
            ),
            (
                "anthropic credit",
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}"#,
                ErrorKind::Billing,
                BILLING,
            ),
            (
                "anthropic model",
                404,
                r#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}}"#,
                ErrorKind::NotFound,
                UNKNOWN_MODEL,
            ),
            (
                "anthropic too long",
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
                ErrorKind::TooLarge,
                TOO_LARGE,
            ),
            (
                "anthropic size",
                413,
                r#"{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}"#,
                ErrorKind::TooLarge,
                TOO_LARGE,
            ),
            (
                "anthropic rate",
                429,
                r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#,
                ErrorKind::RateLimited,
                RATE_LIMITED,
            ),
            (
                "anthropic overloaded",
                529,
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                ErrorKind::Server,
                OVERLOADED,
            ),
            // Gemini.
            (
                "gemini key",
                400,
                r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}"#,
                ErrorKind::Auth,
                AUTH,
            ),
            (
                "gemini model",
                404,
                r#"{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta, or is not supported for generateContent.","status":"NOT_FOUND"}}"#,
                ErrorKind::NotFound,
                UNKNOWN_MODEL,
            ),
            (
                "gemini billing",
                400,
                r#"{"error":{"code":400,"message":"This API method requires billing to be enabled. Please enable billing on project #1.","status":"FAILED_PRECONDITION"}}"#,
                ErrorKind::Billing,
                BILLING,
            ),
            (
                "gemini too many tokens",
                400,
                r#"{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#,
                ErrorKind::TooLarge,
                TOO_LARGE,
            ),
            (
                "gemini rate",
                429,
                r#"{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}"#,
                ErrorKind::RateLimited,
                RATE_LIMITED,
            ),
            (
                "gemini overloaded",
                503,
                r#"{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}"#,
                ErrorKind::Server,
                OVERLOADED,
            ),
            // OpenRouter.
            (
                "openrouter credits",
                402,
                r#"{"error":{"code":402,"message":"Insufficient credits. Add more using https://openrouter.ai/settings/credits"}}"#,
                ErrorKind::Billing,
                BILLING,
            ),
            (
                "openrouter model",
                400,
                r#"{"error":{"code":400,"message":"x/none is not a valid model ID"}}"#,
                ErrorKind::NotFound,
                UNKNOWN_MODEL,
            ),
            // A body that is not JSON: the status alone.
            (
                "html 502",
                502,
                "<html>Bad gateway</html>",
                ErrorKind::Server,
                SERVER,
            ),
            (
                "plain 404",
                404,
                "Not Found",
                ErrorKind::NotFound,
                UNKNOWN_MODEL,
            ),
            ("plain 400", 400, "bad", ErrorKind::BadRequest, REJECTED),
        ];
        for (case, status, body, kind, advice) in cases {
            let r = read(*status, body);
            assert_eq!((r.kind, r.advice), (*kind, *advice), "{case}");
        }
    }

    /// Money and an unknown model are for the user to fix; an overload clears by waiting.
    #[test]
    fn only_what_waiting_can_fix_is_tried_again() {
        let e = |status, body| crate::engine::model::ModelError::new(read(status, body).kind, "x");
        assert!(!e(402, "{}").retryable());
        assert!(!e(413, "{}").retryable());
        assert!(e(529, "{}").retryable());
        assert!(e(429, "{}").retryable());
    }
}
