/**
 * The sandbox's scripted agent: what it answers, decided from the question, the earlier questions
 * of the thread, the caller's identity and its user attributes. Deterministic: the same
 * conversation gets the same answer. No I/O here; `chat-turn-script.ts` turns it into timed lines.
 */

import type { Report, UserAttribute } from "../core/schema.js";
import { storedPlacements as placementsOf } from "./placement-rules.js";

/** The user attributes an admin "configured" for the sandbox's agents: others answer 400. */
export const CONFIGURED_ATTRIBUTES = ["region"] as const;

/** The agent's small fixed data set: revenue in thousands of USD, per region and quarter of 2024. */
const REVENUE = [
  { region: "North America", code: "NA", q: [1240, 1315, 1402] },
  { region: "Europe", code: "EU", q: [980, 1012, 1088] },
  { region: "Asia Pacific", code: "APAC", q: [655, 701, 769] },
  { region: "Latin America", code: "LATAM", q: [310, 298, 342] },
] as const;

type RevenueRow = (typeof REVENUE)[number];
const QUARTERS = ["Q1", "Q2", "Q3"] as const;

export type Topic = "revenue" | "reports" | "recap" | "help";

export interface AgentInput {
  question: string;
  /** Questions asked earlier in this thread, oldest first. */
  earlier: readonly string[];
  /** The topic the previous turn answered, if any: a short follow-up keeps it. */
  previousTopic?: Topic | undefined;
  externalId: string;
  email?: string | undefined;
  userAttributes?: readonly UserAttribute[] | undefined;
  /** The reports of the agent's deployment, as they stand now. */
  reports: readonly Report[];
}

export interface AgentPlan {
  topic: Topic;
  progress: string;
  toolCall: { name: string; input: Record<string, unknown>; result: string };
  /** The non-final assistant message said before the answer. */
  thinking: string;
  /** The final answer, markdown. */
  answer: string;
  /** Model calls and tokens reported in `__usage__`. */
  usage: { llmCalls: number; inputTokens: number; outputTokens: number };
}

function mentions(text: string, words: readonly string[]): boolean {
  return words.some((w) => new RegExp(`(^|[^a-z0-9])${w}([^a-z0-9]|$)`, "i").test(text));
}

function regionsNamed(text: string): RevenueRow[] {
  return REVENUE.filter((r) => mentions(text, [r.region.toLowerCase(), r.code.toLowerCase()]));
}

/** The rows row-level security lets this caller see: all, or those named by the `region` attribute. */
function visibleRows(attributes: readonly UserAttribute[] | undefined): {
  rows: RevenueRow[];
  rule: string | null;
} {
  const attr = attributes?.find((a) => a.name === "region");
  if (!attr || attr.value === null) return { rows: [...REVENUE], rule: null };
  const sent = (Array.isArray(attr.value) ? attr.value : [attr.value]).map((v) => String(v));
  const values = sent.map((v) => v.toLowerCase());
  const rows = REVENUE.filter(
    (r) => values.includes(r.region.toLowerCase()) || values.includes(r.code.toLowerCase()),
  );
  return { rows, rule: `region = ${sent.join(", ")}` };
}

function classify(question: string, previous: Topic | undefined): Topic {
  const q = question.toLowerCase();
  if (mentions(q, ["what did i ask", "earlier", "previous question", "so far"])) return "recap";
  if (
    mentions(q, ["report", "reports", "placement", "placements", "placed", "sheet", "out of date", "stale"])
  ) {
    return "reports";
  }
  if (
    mentions(q, ["revenue", "sales", "region", "regions", "top", "best", "highest", "growth", "total"]) ||
    regionsNamed(q).length > 0
  ) {
    return "revenue";
  }
  // A short follow-up ("and Q2?") keeps the topic of the turn before.
  if (
    previous &&
    previous !== "help" &&
    previous !== "recap" &&
    mentions(q, ["q1", "q2", "q3", "and", "what about"])
  ) {
    return previous;
  }
  return "help";
}

const fmt = (n: number) => n.toLocaleString("en-US");

function revenueAnswer(input: AgentInput, rows: RevenueRow[], rule: string | null): string {
  const q = input.question.toLowerCase();
  const named = regionsNamed(q);
  const focus = named.length ? rows.filter((r) => named.includes(r)) : rows;
  const quarterIdx = QUARTERS.map((_, i) => i).filter((i) => mentions(q, [QUARTERS[i]!.toLowerCase()]));
  const cols = quarterIdx.length ? quarterIdx : [0, 1, 2];
  const lines: string[] = [];
  if (focus.length === 0) {
    lines.push(
      rule
        ? `No revenue rows are visible to you: row-level security limits you to ${rule}.`
        : "No region matches that question.",
    );
    return lines.join("\n");
  }
  const total = (r: RevenueRow) => cols.reduce((s, i) => s + r.q[i]!, 0);
  const header = ["Region", ...cols.map((i) => QUARTERS[i]!), ...(cols.length > 1 ? ["Total"] : [])];
  lines.push(`Revenue by region, 2024 (thousands of USD):`, "");
  lines.push(`| ${header.join(" | ")} |`, `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
  for (const r of focus) {
    const cells = [r.region, ...cols.map((i) => fmt(r.q[i]!)), ...(cols.length > 1 ? [fmt(total(r))] : [])];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  const best = [...focus].sort((a, b) => total(b) - total(a))[0]!;
  const sum = focus.reduce((s, r) => s + total(r), 0);
  lines.push("");
  if (focus.length > 1) {
    lines.push(
      `**${best.region}** leads with ${fmt(total(best))}k of ${fmt(sum)}k across the ${focus.length} regions shown.`,
    );
  } else {
    const growth = ((best.q[2] - best.q[0]) / best.q[0]) * 100;
    lines.push(`**${best.region}**: ${fmt(total(best))}k; Q1 to Q3 growth ${growth.toFixed(1)}%.`);
  }
  return lines.join("\n");
}

function reportsAnswer(reports: readonly Report[]): string {
  if (reports.length === 0) return "This deployment has no reports.";
  const lines = ["The reports in this deployment and where they are placed:", ""];
  lines.push("| Report | Placements | Out of date |", "|---|---:|---:|");
  for (const r of reports) {
    const ps = placementsOf(r);
    const stale = ps.filter((p) => p.syncStatus === "CHANGED").length;
    lines.push(`| ${r.name.replace(/\|/g, "\\|")} | ${ps.length} | ${stale} |`);
  }
  const placed = reports.filter((r) => placementsOf(r).length > 0).length;
  lines.push("", `${placed} of ${reports.length} reports are placed in a spreadsheet.`);
  return lines.join("\n");
}

const HELP =
  "I am the sandbox's scripted analyst. Ask me about **revenue by region** (for example *Which region had the highest revenue in Q3?*), or about **the reports** in this deployment and where they are placed.";

/** Decides what the agent says. */
export function planAnswer(input: AgentInput): AgentPlan {
  const topic = classify(input.question, input.previousTopic);
  const { rows, rule } = visibleRows(input.userAttributes);
  const who = input.email ?? input.externalId;
  const parts: string[] = [];
  const previous = input.earlier.at(-1);
  if (previous !== undefined && topic !== "recap")
    parts.push(`Following up on your earlier question, “${previous}”:`, "");

  let toolCall: AgentPlan["toolCall"];
  let progress: string;
  if (topic === "revenue") {
    progress = "Looking up revenue by region and quarter.";
    const body = revenueAnswer(input, rows, rule);
    toolCall = {
      name: "query_data",
      input: {
        measures: ["orders.revenue"],
        dimensions: ["orders.region", "orders.quarter"],
        ...(rule ? { rowLevelSecurity: rule } : {}),
      },
      result: `${rows.length} region rows`,
    };
    parts.push(body);
  } else if (topic === "reports") {
    progress = "Listing the reports of this deployment.";
    toolCall = { name: "list_reports", input: {}, result: `${input.reports.length} reports` };
    parts.push(reportsAnswer(input.reports));
  } else if (topic === "recap") {
    progress = "Reading this conversation.";
    toolCall = { name: "read_thread", input: {}, result: `${input.earlier.length} earlier questions` };
    parts.push(
      input.earlier.length
        ? ["You asked, in order:", "", ...input.earlier.map((q, i) => `${i + 1}. ${q}`)].join("\n")
        : "This is the first question of this conversation.",
    );
  } else {
    progress = "Reading the question.";
    toolCall = { name: "describe_capabilities", input: {}, result: "revenue, reports" };
    parts.push(HELP);
  }
  parts.push("", `_Answered for ${who}${rule ? `; row-level security: ${rule}` : ""}._`);
  const answer = parts.join("\n");
  return {
    topic,
    progress,
    toolCall,
    thinking: "I have what I need; writing the answer.",
    answer,
    usage: {
      llmCalls: 2,
      inputTokens: 400 + Math.ceil((input.question.length + input.earlier.join(" ").length) / 4),
      outputTokens: Math.ceil(answer.length / 4),
    },
  };
}

/** Splits text into `n` or so pieces at word boundaries; joined back, they give the text exactly. */
export function splitIntoPieces(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    while (end < text.length && !/\s/.test(text[end]!)) end++;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces.length ? pieces : [""];
}
