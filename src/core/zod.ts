/**
 * zod (its mini API) as every schema of the core uses it, configured once, before any schema is
 * built or parsed: jitless. The pages the pane runs in forbid eval (a Content-Security-Policy
 * without 'unsafe-eval'); without this, zod probes `new Function` on its first parse, and although
 * it catches the failure, the browser reports a policy violation. A schema may be built and parsed
 * by whichever chunk uses it first (each is built on first use, lazy-schema.ts), so the setting
 * lives with the import rather than in one host's entry. `regexes` are zod's own patterns, for the
 * readings done by hand (schema.ts).
 *
 * The core's modules import this module's namespace (`import * as z from "./zod.js"`), which holds
 * only the functions named below. zod's own `z` is an object of its whole API, locales included:
 * shared between the pane's chunks, the bundler keeps every part of it (about 80 KB gzipped, all
 * evaluated before the first request), where named imports keep only what is used.
 */

import { en } from "zod/locales";
import { config, type core } from "zod/mini";

config({ jitless: true });

// zod/mini sets no locale of its own: without one every message would read "Invalid input", and
// the client's errors name the field and what was expected. The full API, when also loaded (the
// sandbox), sets the same one.
if (!config().localeError) config(en());

export type { infer, ZodMiniType } from "zod/mini";
export {
  _default,
  array,
  boolean,
  enum,
  gte,
  int,
  iso,
  looseObject,
  lte,
  maxLength,
  minLength,
  NEVER,
  null,
  nullable,
  nullish,
  number,
  object,
  optional,
  pipe,
  record,
  regex,
  regexes,
  string,
  transform,
  tuple,
  union,
  unknown,
} from "zod/mini";
/** The error a failed parse carries (`z.core.$ZodError` in zod's own namespace). */
export type ZodError = core.$ZodError;
