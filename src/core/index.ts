/** The public API of the core: pure TypeScript shared by the task pane, both hosts and the sandbox. */
export * from "./arguments.js";
export * from "./chat-client.js";
export {
  ABORTED_ID,
  type ChatMessage,
  CUTOFF_ID,
  conversationId,
  createMessageMerger,
  finalAnswer,
  isControlMessage,
  isFinalAnswerMessage,
  type MergedChatMessage,
  type MessageMerger,
  markedFinalAnswer,
  mergeChatMessages,
  SUSPENDED_ID,
  sortChatMessages,
} from "./chat-messages.js";
export {
  type AgentAnswer,
  type AskRequest,
  abortUrlOf,
  CHAT_PATH,
  type IncompleteAnswer,
  type IncompleteReason,
  newMessageId,
  type RandomBytes,
} from "./chat-request.js";
export * from "./client.js";
export * from "./data-api.js";
export * from "./data-client.js";
export { dateToSerial, excelDateSerial } from "./date-serial.js";
export * from "./directory.js";
export * from "./disconnect-flow.js";
export * from "./display.js";
export * from "./domains.js";
export * from "./errors.js";
export * from "./hand-edits.js";
export * from "./http.js";
export * from "./limits.js";
export * from "./location.js";
export * from "./messages.js";
export * from "./ndjson.js";
export * from "./operations.js";
export * from "./place-flow.js";
export * from "./placement-moves.js";
export * from "./placement-view.js";
export * from "./placements.js";
export * from "./refresh-flow.js";
export * from "./refresh-plan.js";
export {
  type ColumnKind,
  DATE_FORMATS,
  DATE_TIME_FORMAT,
  type DateFormatArea,
  type GridCell,
  type GridReport,
  MEASURES_LABEL,
  type ReportGrid,
  reportGrid,
  TOTAL_LABEL,
  VALUE_LABEL,
} from "./report-grid.js";
export {
  CHECKSUM_HASH_CHARS,
  type ChecksumCell,
  type ChecksumOptions,
  describeEditedRows,
  type EditedRows,
  editedRows,
  type GridExtent,
  MAX_CHECKSUM_CHUNKS,
  RESULT_CHECKSUM_VERSION,
  type ResultChecksumChunk,
  type RowRange,
  resultChecksum,
} from "./result-checksum.js";
export * from "./schema.js";
export * from "./settings.js";
export * from "./transport.js";
export * from "./undo-disconnect.js";
export * from "./user-attributes.js";
