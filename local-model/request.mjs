// Reading a chat completions request: its messages as node-llama-cpp's chat history, and its
// sampling settings with llama.cpp's server defaults. Kept apart from the server so that it is
// tested without a model (request.test.mjs).

/** An error answered to the client with its status and message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** A message's text: a string, or OpenAI's list of parts, whose text parts are joined. */
function textOf(content, i) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map(p => {
      if (p?.type === 'text' && typeof p.text === 'string') return p.text;
      throw new ApiError(400, `messages[${i}]: only text parts are understood here, not '${p?.type}'`);
    }).join('');
  }
  if (content == null) return '';
  throw new ApiError(400, `messages[${i}].content is neither text nor a list of parts`);
}

/** OpenAI's messages as a chat history, ending in the model's turn to answer. */
export function chatHistory(messages) {
  if (!Array.isArray(messages) || messages.length === 0) throw new ApiError(400, 'messages must be a non-empty list');
  const history = messages.map((m, i) => {
    const text = textOf(m?.content, i);
    switch (m?.role) {
      case 'system':
      case 'developer':
        return { type: 'system', text };
      case 'user':
        return { type: 'user', text };
      case 'assistant':
        return { type: 'model', response: [text] };
      default:
        throw new ApiError(400, `messages[${i}].role '${m?.role}' is not system, user or assistant`);
    }
  });
  history.push({ type: 'model', response: [] });
  return history;
}

const number = (v, name, lo, hi) => {
  if (v == null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) throw new ApiError(400, `${name} must be a number from ${lo} to ${hi}`);
  return v;
};

/** The request's sampling settings; what it leaves out takes llama.cpp's defaults. */
export function readSampling(body) {
  const max = body.max_completion_tokens ?? body.max_tokens;
  const stop = body.stop == null ? [] : Array.isArray(body.stop) ? body.stop : [body.stop];
  if (!stop.every(s => typeof s === 'string' && s.length > 0)) throw new ApiError(400, 'stop must be a text or a list of texts');
  return {
    maxTokens: max == null ? undefined : Math.floor(number(max, 'max_tokens', 1, 1 << 20)),
    temperature: number(body.temperature, 'temperature', 0, 2) ?? 0.8,
    topP: number(body.top_p, 'top_p', 0, 1) ?? 0.95,
    seed: body.seed == null ? undefined : Math.floor(number(body.seed, 'seed', 0, 2 ** 32)),
    stop,
  };
}
