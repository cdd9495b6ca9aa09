/**
 * The add-in's own limits, in one place. The service publishes no limits (platform-api.md), so a
 * misbehaving or hostile service could otherwise freeze the pane with a huge answer, hold it with
 * an endless list, or keep it waiting for ever. Each limit is generous for real use; past one, the
 * user reads a message that names it. docs/security.md lists them with their numbers.
 */

/** Largest answer body the management client reads (a report list page, a report): 10 MB. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * Most reports one workbook's list may hold. platform-api.md: the newer placements endpoint refuses
 * (422) more than 500 reports in one document; 2,000 leaves room for the older list endpoint.
 */
export const MAX_LISTED_REPORTS = 2_000;

/** Most pages of a report list the client follows (100 reports a page: 50 pages). */
export const MAX_LIST_PAGES = 50;

/** Largest agent answer shown: 200,000 characters (a long report is about 20,000). */
export const MAX_ANSWER_CHARS = 200_000;

/** Longest single line of a chat stream: 1,000,000 characters. */
export const MAX_CHAT_LINE_CHARS = 1_000_000;

/**
 * Most messages (distinct ids) one answer may hold: 1,000. A real answer has a few dozen (its steps
 * and the final message); past this the answer so far is kept, marked cut, and reading stops.
 */
export const MAX_CHAT_MESSAGES = 1_000;

/** Most bytes of one chat stream read before the answer is cut: 8 MB. */
export const MAX_CHAT_STREAM_BYTES = 8 * 1024 * 1024;

/**
 * How long the chat waits for the service to send anything (the answer's headers, or the next piece
 * of a streaming answer) before it gives up: 60 s. A slow agent that keeps streaming is not cut.
 */
export const CHAT_IDLE_TIMEOUT_MS = 60_000;

/** How long a management request may take before it counts as timed out: 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * How many times a DELETE is retried: once, and only after an answer that says the service did not
 * act on it (429, 503). A repeated disconnect is safe (disconnect rule 9) but a storm of them is not.
 */
export const MAX_DELETE_RETRIES = 1;

/** "200,000" for messages. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "10 MB" for messages. */
export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${formatCount(n / (1024 * 1024))} MB` : `${formatCount(n / 1024)} KB`;
}
