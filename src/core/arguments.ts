/**
 * The shapes of what a pane may pass to a host function across a boundary (Apps Script's
 * `google.script.run` carries whatever the page sends: numbers, nulls, arrays, nested objects).
 * Every argument is checked here before use, so a wrong type is a clear `bad-request` naming the
 * argument, never a raw script error ("v.trim is not a function"). Values are never echoed: a
 * settings value may be a secret. Settings patches have their own check (`parseSettingsPatch`).
 */

import { PlatformError } from "./errors.js";
import { ConnectWorkbookInputSchema, DisconnectInputSchema, SessionSettingsSchema } from "./schema.js";
import * as z from "./zod.js";

const Id = z.int().check(z.gte(0));

export const DisconnectArgumentsSchema = z.tuple([Id, Id, DisconnectInputSchema]);

export const ConnectArgumentsSchema = z.tuple([Id, Id, ConnectWorkbookInputSchema]);

export const ScimPageArgumentSchema = z.object({
  count: z.int().check(z.gte(0), z.lte(1000)),
  startIndex: z.int().check(z.gte(1)),
});

/** The longest question sent to the agent: 20,000 characters. */
const MAX_QUESTION_CHARS = 20_000;

export const AskArgumentSchema = z.object({
  input: z.string().check(z.minLength(1), z.maxLength(MAX_QUESTION_CHARS)),
  chatId: z.optional(z.nullable(z.string())),
  sessionSettings: z.optional(SessionSettingsSchema),
});

export const RangeTargetArgumentSchema = z.object({
  sheetId: z.nullable(z.string()),
  sheetName: z.string(),
  range: z.string(),
});

export const ChatIdArgumentSchema = z.string().check(z.minLength(1), z.maxLength(500));

/**
 * Checks one argument against its schema; throws `bad-request` naming the argument and the first
 * problem (a path and what was expected, no value).
 */
export function checkArgument<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join(".")}` : "";
  const expected = issue?.code === "invalid_type" ? `: expected ${String(issue.expected)}` : "";
  throw new PlatformError(
    "bad-request",
    `The add-in could not read ${what}${where}${expected}. Close and reopen the sidebar, then try again.`,
  );
}
