/**
 * Marks a `modulepreload` link of the Excel page that preloads the first list's code (the gateway
 * and the transports, tooling/excel/build.ts): preloaded with the page, not part of the first
 * screen's budget (the pane's first frame does not wait for it, the list's request does; it has a
 * budget of its own, test/hosts/excel/dist.test.ts). Its own module so that the tests and the bench
 * read it without loading the build.
 */
export const FIRST_LIST_ATTRIBUTE = "data-first-list";
