/**
 * The refresh worker's entry (a module worker of the Excel pane and the preview, started by
 * direct-refresh.ts when a refresh starts): it serves prepare-result.ts's messages.
 */
import { type MessagePortLike, servePreparation } from "./prepare-result.js";

servePreparation(globalThis as unknown as MessagePortLike);
