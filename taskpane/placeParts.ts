/**
 * The lazily loaded parts of "Place a report here" and of hand edits, in one chunk: each new chunk
 * the first screen's modules are shared with splits those modules into chunks of their own, and
 * every file the first screen loads costs its own gzip overhead (test/hosts/excel/dist.test.ts).
 */
export { default as HandEditLine } from "./HandEditLine.js";
export { default as HandEditsWatch } from "./HandEditsWatch.js";
export { default as PlacePicker } from "./PlacePicker.js";
