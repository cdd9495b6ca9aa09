/**
 * The sidebar's code split for HtmlService (used by build.ts): Sidebar.html inlines only what the
 * first screen runs, and every lazily imported chunk (agent chat, markdown, settings, menus, toasts)
 * becomes an Apps Script HTML file of its own, `SidebarChunk_<name>.html`, that the sidebar asks the
 * server for (`loadSidebarChunks`, one google.script.run call) when the pane first needs it. The
 * sidebar's frame cannot fetch anything else: HtmlService serves the project's HTML files only.
 *
 * The sidebar is built as CommonJS chunks (Rolldown has no SystemJS output): each chunk becomes a
 * factory `define`d into a small module registry (CHUNK_RUNTIME), so React, Fluent and the pane
 * exist once and every chunk shares them; a chunk's static `require("./x.js")` names another
 * chunk's id, and a dynamic import becomes `__sidebarChunks.load(id)`, which fetches the chunk and
 * the chunks it needs that are not there yet, injects their code as inline <script> elements (the
 * sidebar's CSP allows inline scripts; no eval), and resolves to the chunk's exports.
 */
import type { Plugin } from "vite";
import { withCompileHint } from "../compile-hints.js";

/** The registry's global in the sidebar. */
export const CHUNK_GLOBAL = "__sidebarChunks";
/** Apps Script file names of the lazy chunks start with this (letters, digits, underscores only). */
export const CHUNK_FILE_PREFIX = "SidebarChunk_";

/** The Apps Script name of a built chunk: "assets/fade-atom-DN9Zw7ha.js" -> "SidebarChunk_fade_atom_DN9Zw7ha". */
function chunkFileName(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1).replace(/\.js$/, "");
  return `${CHUNK_FILE_PREFIX}${base.replace(/[^A-Za-z0-9]/g, "_")}`;
}

/**
 * The module registry, inlined first in Sidebar.html. `lazy` maps each lazy chunk's id to the ids
 * of the lazy chunks it imports statically (transitively): what one `load` must bring. The sidebar
 * sets `fetch` (names -> their code, in order) to a call of the server's loadSidebarChunks.
 */
function chunkRuntime(lazy: Record<string, string[]>): string {
  return `(function(){var lazy=${JSON.stringify(lazy)},factories={},modules={},pending={};
function inject(code){var s=document.createElement("script");s.textContent=code;document.head.appendChild(s);s.remove();}
var rt=window.${CHUNK_GLOBAL}={fetch:null,
define:function(id,factory){if(!factories[id])factories[id]=factory;},
require:function req(id){var m=modules[id];if(m)return m.exports;var f=factories[id];
if(!f)throw new Error("The sidebar's code "+id+" is not loaded.");m=modules[id]={exports:{}};f(req,m.exports,m);return m.exports;},
load:function(id){var want=[id].concat(lazy[id]||[]);
var missing=want.filter(function(n){return !factories[n]&&!pending[n];});
if(missing.length){var p=Promise.resolve().then(function(){
if(!rt.fetch)throw new Error("The sidebar cannot load its code yet.");return rt.fetch(missing);}).then(function(codes){
for(var i=0;i<codes.length;i++)inject(codes[i]);});
missing.forEach(function(n){pending[n]=p;});
p.catch(function(){missing.forEach(function(n){delete pending[n];});});}
return Promise.all(want.map(function(n){return pending[n];})).then(function(){return rt.require(id);});}};})();`;
}

/** One chunk as a factory for the registry. */
function defineChunk(id: string, code: string): string {
  return `${CHUNK_GLOBAL}.define(${JSON.stringify(id)},function(require,exports,module){"use strict";\n${code}\n});`;
}

/** Code placed inside a <script> element (inline, or a chunk file): no `</script>` or `<!--` ends it early. */
function scriptSafe(code: string): string {
  return code.replace(/<(\/script|!--)/gi, "\\x3C$1");
}

/** What a chunk file holds: its define call in a <script> element, as Apps Script HTML files usually hold code. */
function chunkFileContent(id: string, code: string): string {
  return `<script>\n${scriptSafe(defineChunk(id, code))}\n</script>\n`;
}

interface BuiltChunk {
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
}

const DYNAMIC_REQUIRE = /Promise\.resolve\(\)\.then\(\(\)\s*=>\s*require\((["'`])\.\/([^"'`]+)\1\)\)/g;
const STATIC_REQUIRE = /\brequire\((["'`])\.\/([^"'`]+)\1\)/g;

/**
 * A chunk's code with its imports pointing into the registry: dynamic imports (Rolldown's CommonJS
 * form `Promise.resolve().then(()=>require("./x.js"))`) become `load(id)`, static requires
 * `require(id)`. Throws when the chunk loads a file in any other way, or a dynamic import was not
 * found in the expected form: the build fails rather than the sidebar.
 */
function rewriteChunk(chunk: BuiltChunk, idOf: (fileName: string) => string): string {
  const dir = chunk.fileName.includes("/")
    ? chunk.fileName.slice(0, chunk.fileName.lastIndexOf("/") + 1)
    : "";
  const known = (file: string, list: string[], how: string) => {
    if (!list.includes(dir + file)) {
      throw new Error(`Sidebar chunk ${chunk.fileName} ${how} ./${file}, which the bundle does not list.`);
    }
    return idOf(dir + file);
  };
  const rewritten = new Set<string>();
  let code = chunk.code.replace(DYNAMIC_REQUIRE, (_m, _q, file: string) => {
    rewritten.add(dir + file);
    return `${CHUNK_GLOBAL}.load(${JSON.stringify(known(file, chunk.dynamicImports, "imports dynamically"))})`;
  });
  for (const target of chunk.dynamicImports) {
    if (!rewritten.has(target)) {
      throw new Error(
        `Sidebar chunk ${chunk.fileName}: the dynamic import of ${target} is not in the form the loader rewrites.`,
      );
    }
  }
  code = code.replace(
    STATIC_REQUIRE,
    (_m, _q, file: string) => `require(${JSON.stringify(known(file, chunk.imports, "requires"))})`,
  );
  return code;
}

/** The result of splitting: what Sidebar.html inlines and the lazy chunk files. */
interface SplitSidebar {
  /** The inline script: the registry, the first screen's chunks, and the entry's start. */
  inlineScript: string;
  /** Apps Script file name (no extension) -> the file's content. */
  files: Map<string, string>;
}

function splitSidebar(chunks: readonly BuiltChunk[]): SplitSidebar {
  const entry = chunks.filter((c) => c.isEntry);
  if (entry.length !== 1) throw new Error(`The sidebar build has ${entry.length} entry chunks, not one.`);
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const ids = new Map<string, string>();
  for (const c of chunks) {
    const id = chunkFileName(c.fileName);
    if ([...ids.values()].includes(id)) throw new Error(`Two sidebar chunks map to the file name ${id}.`);
    ids.set(c.fileName, id);
  }
  const idOf = (file: string) => {
    const id = ids.get(file);
    if (!id) throw new Error(`The sidebar bundle has no chunk ${file}.`);
    return id;
  };
  const closure = (start: string): Set<string> => {
    const seen = new Set<string>();
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...(byFile.get(file)?.imports ?? []));
    }
    return seen;
  };
  const initial = closure(entry[0]!.fileName);
  const lazy: Record<string, string[]> = {};
  const files = new Map<string, string>();
  const inline: string[] = [];
  for (const c of chunks) {
    const code = rewriteChunk(c, idOf);
    if (initial.has(c.fileName)) {
      inline.push(defineChunk(idOf(c.fileName), code));
    } else {
      const needs = [...closure(c.fileName)].filter((f) => f !== c.fileName && !initial.has(f));
      lazy[idOf(c.fileName)] = needs.map(idOf).sort();
      files.set(idOf(c.fileName), chunkFileContent(idOf(c.fileName), code));
    }
  }
  const start = `${CHUNK_GLOBAL}.require(${JSON.stringify(idOf(entry[0]!.fileName))});`;
  return { inlineScript: scriptSafe([chunkRuntime(lazy), ...inline, start].join("\n")), files };
}

/**
 * The Vite plugin: after the HTML is written, replaces its module script and preloads with one
 * inline classic script at the end of <body> (where #root exists), and turns every other chunk into
 * a `SidebarChunk_*.html` file. Any other emitted file (a stylesheet, an image) fails the build:
 * Sidebar.html could not load it.
 */
export function sidebarChunks(): Plugin {
  return {
    name: "reporting-platform:sidebar-chunks",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const chunks: BuiltChunk[] = [];
      let htmlName: string | null = null;
      for (const [name, file] of Object.entries(bundle)) {
        if (file.type === "chunk") chunks.push(file);
        else if (name.endsWith(".html")) htmlName = name;
        else throw new Error(`The sidebar build emitted ${name}, which Sidebar.html cannot load.`);
      }
      if (!htmlName) throw new Error("The sidebar build emitted no HTML page.");
      const page = bundle[htmlName]!;
      if (page.type !== "asset") throw new Error(`${htmlName} is not an HTML asset.`);
      const { inlineScript, files } = splitSidebar(chunks);
      let html = String(page.source)
        .replace(/\s*<script\b[^>]*\ssrc=["']\.\/[^"']+["'][^>]*><\/script>/g, "")
        .replace(/\s*<link\b[^>]*\srel=["']modulepreload["'][^>]*>/g, "");
      if (!html.includes("</body>")) throw new Error(`${htmlName} has no </body>.`);
      // A function replacement: the code holds `$` sequences a replacement string would interpret.
      // The inline script is the first screen: V8 compiles its functions eagerly (compile-hints.ts).
      html = html.replace("</body>", () => `<script>${withCompileHint(inlineScript)}\n</script>\n</body>`);
      page.source = html;
      for (const c of chunks) delete bundle[c.fileName];
      for (const [name, content] of files) {
        this.emitFile({ type: "asset", fileName: `${name}.html`, source: content });
      }
    },
  };
}
