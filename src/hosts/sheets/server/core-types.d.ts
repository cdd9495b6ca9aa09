/**
 * For `tsc -p tsconfig.sheets.json` only (no DOM library there): the core names `TextDecoder` as a
 * type, and @types/node declares only its value. At run time Apps Script has no TextDecoder at all;
 * web-globals.ts installs one.
 */
type TextDecoder = import("node:util").TextDecoder;
