/**
 * Set up before every DOM test file (vite.config.ts). The DOM tier's files share worker processes,
 * and each must still start as it would in a process of its own: the tier's pool (`vmForks`) gives
 * every file a VM context and a jsdom window of its own. This checks that it did, so a window that
 * another file used (a pool changed to one that shares it: a shared document keeps the styles and
 * nodes each file left) fails here, by name, before any test of the file runs.
 *
 * It also tells React that every DOM file is a test environment (React's `IS_REACT_ACT_ENVIRONMENT`):
 * updates inside `act` are flushed before it returns, and an update outside one is warned about.
 */
const MARK = "__testFileWindow";

if (document.body.childNodes.length > 0 || document.head.childNodes.length > 0) {
  throw new Error("This DOM test file starts in a document another file filled: its window is not its own.");
}
if (MARK in window) {
  throw new Error("This DOM test file starts in a window another file used: its window is not its own.");
}
Object.defineProperty(window, MARK, { value: true });

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
