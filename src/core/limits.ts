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

/**
 * Most rows a report's grid may have: 1,048,576, the rows of one Excel worksheet (Google Sheets
 * allows more rows, but a grid must fit both hosts). Where the anchor sits lowers what fits; the
 * host checks that against its sheet.
 */
export const MAX_GRID_ROWS = 1_048_576;

/** Most columns a report's grid may have: 16,384, the columns of one Excel worksheet (XFD). */
export const MAX_GRID_COLUMNS = 16_384;

/**
 * Most cells a report's grid may have: 5,000,000. Excel on the web reads at most 5,000,000 cells in
 * one range, and the add-in reads the cells back to tell hand edits; Google Sheets holds 10 million
 * cells in a whole spreadsheet, so a larger grid could not be placed there either.
 */
export const MAX_GRID_CELLS = 5_000_000;

/** "200,000" for messages. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "10 MB" for messages. */
export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${formatCount(n / (1024 * 1024))} MB` : `${formatCount(n / 1024)} KB`;
}

/**
 * The data API (platform-api.md, "The data API"): rows a query without a `limit` returns (the
 * service's default), and the most one load may ask for (the service refuses more, 400).
 */
export const DEFAULT_DATA_QUERY_LIMIT = 10_000;
export const MAX_DATA_PAGE_ROWS = 50_000;

/**
 * Most rows of one placement's data: Excel's sheet has 1,048,576 rows, one of them the header.
 * Google Sheets' 10 million cells per spreadsheet bind sooner, through MAX_DATA_CELLS.
 */
export const MAX_DATA_ROWS = 1_048_575;

/**
 * Most cells of one placement's data: 5,000,000, the most Excel reads in one range (a placement
 * must be readable back to compare it with its checksum) and half a Google spreadsheet's 10 million.
 */
export const MAX_DATA_CELLS = 5_000_000;

/**
 * Largest answer of one data page read: 50 MB, the most UrlFetchApp returns (Apps Script's URL Fetch
 * response size); the async runner keeps the same cap so both hosts load the same reports.
 */
export const MAX_DATA_ANSWER_BYTES = 50 * 1024 * 1024;

/** How long one data request may take before it counts as timed out: 60 s (UrlFetchApp's own bound). */
export const DATA_REQUEST_TIMEOUT_MS = 60_000;

/**
 * How long a load keeps asking again while the service answers "Continue wait": 5 minutes in all.
 * The pauses between asks start at DATA_POLL_FIRST_MS and double up to DATA_POLL_MAX_MS.
 */
export const DATA_WAIT_TIMEOUT_MS = 5 * 60_000;
export const DATA_POLL_FIRST_MS = 250;
export const DATA_POLL_MAX_MS = 2_000;

/**
 * The data token (platform-api.md: `POST .../token`): asked for 15 minutes, kept in memory only,
 * and renewed when less than a minute of it is left, so a token never expires mid-load.
 */
export const DATA_TOKEN_LIFETIME_S = 15 * 60;
export const DATA_TOKEN_RENEW_MARGIN_S = 60;
