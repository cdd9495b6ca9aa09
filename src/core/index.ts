/** The public API of the core: pure TypeScript shared by the task pane, both hosts and the sandbox. */
export * from "./arguments.js";
export * from "./chat.js";
export * from "./client.js";
export * from "./display.js";
export * from "./domains.js";
export * from "./errors.js";
export * from "./limits.js";
export * from "./location.js";
export * from "./placements.js";
export * from "./schema.js";
export * from "./settings.js";
export * from "./transport.js";
export * from "./workbook.js";
