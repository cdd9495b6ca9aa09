// tldts ships its minified build (the list packed: about 48 KB gzipped, against about 114 KB for the
// module build the bundler would pick) without a declaration of its own; it exports the same API.
declare module "tldts/dist/index.esm.min.js" {
  export * from "tldts";
}
