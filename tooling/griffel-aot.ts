/**
 * Build-time styles for the pane's own components: every `makeStyles({...})` in taskpane/ is
 * resolved to its CSS when the pane is built and becomes `__styles(classes, cssRules)`, the form
 * Fluent's own components ship in. The browser then runs no style compiler at all: Griffel's
 * runtime (its resolver, stylis, rtl-css-js; about 14 KB gzipped) leaves the pane's first script.
 * Same classes and CSS as at run time (`resolveStyleRulesForSlots` is what `makeStyles` calls).
 *
 * A style object is evaluated with Fluent's `tokens`, `shorthands` and `typographyStyles`, and with
 * the constants it names from its own file or the pane's modules it imports (followed through
 * re-exports). One that cannot be evaluated (it uses a value known only at run time) is left to
 * `makeStyles` as it is, with a warning: the build still works, only bigger.
 * Builds only: tests and the dev server run `makeStyles` as written.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { tokens, typographyStyles } from "@fluentui/react-theme";
import { resolveStyleRulesForSlots, shorthands } from "@griffel/core";
import { type Plugin, parseSync } from "vite";

// biome-ignore lint/suspicious/noExplicitAny: ESTree nodes from oxc, walked generically
type Node = any;

const GLOBALS: Record<string, unknown> = { tokens, shorthands, typographyStyles };

/** Where the pane's own modules are: only their makeStyles calls are resolved. */
function ownModule(id: string, roots: readonly string[]): boolean {
  return /\.tsx?$/.test(id) && roots.some((root) => id.startsWith(root));
}

function walk(node: Node, visit: (n: Node) => void): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit);
    return;
  }
  if (typeof node.type === "string") visit(node);
  for (const key of Object.keys(node)) {
    if (key !== "parent") walk(node[key], visit);
  }
}

/** A module's source file for an import specifier ("./PlacementItem.js" -> ".../PlacementItem.tsx"). */
function sourceOf(specifier: string, from: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier).replace(/\.js$/, "");
  for (const ext of [".tsx", ".ts"]) if (existsSync(base + ext)) return base + ext;
  return null;
}

/**
 * The value of `name` as module `file` sees it: a top-level `const` of the file (evaluated in turn)
 * or an import from one of the pane's modules (followed). Throws when it cannot be known here.
 */
function constantValue(name: string, file: string, seen: Set<string>, source?: string): unknown {
  if (name in GLOBALS) return GLOBALS[name];
  const key = `${file}#${name}`;
  if (seen.has(key)) throw new Error(`${name} refers to itself`);
  seen.add(key);
  try {
    return lookUp(name, file, seen, source);
  } finally {
    seen.delete(key);
  }
}

function lookUp(name: string, file: string, seen: Set<string>, source?: string): unknown {
  const code = source ?? readFileSync(file, "utf8");
  for (const statement of parseSync(file, code).program.body as Node[]) {
    const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
    if (declaration?.type === "VariableDeclaration" && declaration.kind === "const") {
      for (const d of declaration.declarations) {
        if (d.id.type === "Identifier" && d.id.name === name && d.init) {
          return evaluate(code.slice(d.init.start, d.init.end), file, seen, code);
        }
      }
    }
    const from = statement.source?.value as string | undefined;
    if (from && (statement.type === "ImportDeclaration" || statement.type === "ExportNamedDeclaration")) {
      for (const s of statement.specifiers ?? []) {
        const local = statement.type === "ImportDeclaration" ? s.local.name : s.exported.name;
        const imported = statement.type === "ImportDeclaration" ? s.imported?.name : s.local.name;
        if (local !== name || !imported) continue;
        const target = sourceOf(from, file);
        if (!target) throw new Error(`${name} comes from ${from}, not one of the pane's modules`);
        return constantValue(imported, target, seen);
      }
    }
  }
  throw new Error(`${name} is not a constant of ${file}`);
}

/** Evaluates an expression of `file` (whose source is `code`), its free names looked up by constantValue. */
function evaluate(expression: string, file: string, seen: Set<string>, code?: string): unknown {
  const scope: Record<string, unknown> = {};
  // Style objects are plain data: the one TypeScript they may hold is `as const`.
  const js = expression.replace(/\s+as\s+const\b/g, "");
  for (let tries = 0; tries < 50; tries++) {
    try {
      return new Function(...Object.keys(scope), `"use strict"; return (${js});`)(...Object.values(scope));
    } catch (error) {
      const missing = error instanceof ReferenceError && /^(\S+) is not defined/.exec(error.message)?.[1];
      if (!missing || missing in scope) throw error;
      scope[missing] = constantValue(missing, file, seen, code);
    }
  }
  throw new Error("too many names");
}

/** The module's makeStyles calls with build-time styles; null when there are none. */
export function precompileStyles(code: string, file: string, warn: (message: string) => void): string | null {
  if (!code.includes("makeStyles(")) return null;
  const calls: Node[] = [];
  walk(parseSync(file, code).program, (n) => {
    if (
      n.type === "CallExpression" &&
      n.callee.type === "Identifier" &&
      n.callee.name === "makeStyles" &&
      n.arguments.length === 1
    ) {
      calls.push(n);
    }
  });
  let out = code;
  let replaced = 0;
  for (const call of calls.sort((a, b) => b.start - a.start)) {
    const argument = call.arguments[0];
    try {
      if (!code.slice(call.start, call.end).startsWith("makeStyles("))
        throw new Error("unexpected source offsets");
      const styles = evaluate(code.slice(argument.start, argument.end), file, new Set(), code);
      const [classes, cssRules] = resolveStyleRulesForSlots(styles as never);
      const aot = `__griffelStyles(${JSON.stringify(classes)}, ${JSON.stringify(cssRules)})`;
      out = out.slice(0, call.start) + aot + out.slice(call.end);
      replaced++;
    } catch (error) {
      warn(`${file}: makeStyles left to run time (${(error as Error).message})`);
    }
  }
  if (replaced === 0) return null;
  return `import { __styles as __griffelStyles } from "@griffel/react";\n${out}`;
}

/** The Vite plugin: resolves makeStyles in the modules under `roots` (absolute folders). */
export function griffelAot(roots: readonly string[]): Plugin {
  return {
    name: "reporting-platform:griffel-aot",
    apply: "build",
    enforce: "pre",
    transform(code, id) {
      if (!ownModule(id, roots)) return null;
      const out = precompileStyles(code, id, (message) => this.warn(message));
      return out == null ? null : { code: out, map: null };
    },
  };
}
