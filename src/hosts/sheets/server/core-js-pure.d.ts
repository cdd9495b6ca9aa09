/** core-js-pure ships no types: its web/url and web/url-search-params export the standard classes. */
declare module "core-js-pure/web/url" {
  const URL: typeof globalThis.URL;
  export default URL;
}
declare module "core-js-pure/web/url-search-params" {
  const URLSearchParams: typeof globalThis.URLSearchParams;
  export default URLSearchParams;
}
