/**
 * Marks a `modulepreload` link of the Excel page that preloads the first list's code (the gateway
 * and the transports, tooling/excel/build.ts): preloaded with the page, not part of the first
 * screen's budget (the pane's first frame does not wait for it, the list's request does; it has a
 * budget of its own, test/hosts/excel/dist.test.ts). Its own module so that the tests and the bench
 * read it without loading the build.
 */
export const FIRST_LIST_ATTRIBUTE = "data-first-list";

/**
 * The `modulepreload` links of a built page ("assets/x.js", as the page names them without "./"):
 * the first screen's, and the first list's (marked with `FIRST_LIST_ATTRIBUTE`), apart.
 */
export function pagePreloads(html: string): { firstScreen: string[]; firstList: string[] } {
  const firstScreen: string[] = [];
  const firstList: string[] = [];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    if (!/\srel="modulepreload"/.test(tag)) continue;
    const href = /\shref="\.\/([^"]+)"/.exec(tag)?.[1];
    if (!href) continue;
    (new RegExp(`\\s${FIRST_LIST_ATTRIBUTE}(?=[\\s/>])`).test(tag) ? firstList : firstScreen).push(href);
  }
  return { firstScreen, firstList };
}
