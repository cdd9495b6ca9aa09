/**
 * A small stand-in for the SQL API (`/cubesql`, platform-api.md part C): it reads the simple SELECTs a
 * report's `sqlQuery` holds and turns them into the same query the REST API runs, so both answer the
 * same rows. `toSql` writes a query in exactly that form (the demo reports' `sqlQuery`, and
 * change-query). Anything else answers 400: this is not a SQL engine (docs/sandbox.md, "cubesql").
 *
 *   SELECT <item> [AS alias], ... FROM <cube>
 *     [WHERE <condition> [AND <condition>]...] [GROUP BY ...] [ORDER BY <column> [ASC|DESC], ...] [LIMIT n] [OFFSET n]
 *
 * item: `<dim>`, `<cube>.<dim>`, `DATE_TRUNC('<granularity>', <time dim>)`, `MEASURE(<measure>)` or
 * `<SUM|COUNT|AVG|MIN|MAX>(<measure>)` (the measure's own aggregation applies either way).
 * condition: `<dim> = | <> | != | > | >= | < | <= <literal>`, `<dim> [NOT] IN (<literal>, ...)`,
 * `<dim> IS [NOT] NULL`, `<dim> [NOT] ILIKE|LIKE '%text%'`. Literals are 'text' or numbers.
 */
import type { CubeData } from "./cubes.js";
import {
  type Filter,
  GRANULARITIES,
  type Granularity,
  MAX_LIMIT,
  type Query,
  QueryError,
  type TimeDimensionQuery,
} from "./query.js";

type Token = { t: "word" | "string" | "number" | "sym"; v: string };

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === "'") {
      let v = "";
      i++;
      for (;;) {
        if (i >= sql.length) throw new QueryError("cubesql: a string literal is not closed.");
        if (sql[i] === "'") {
          if (sql[i + 1] === "'") {
            v += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += sql[i++];
      }
      out.push({ t: "string", v });
    } else if (/[0-9]/.test(ch) || (ch === "-" && /[0-9]/.test(sql[i + 1] ?? ""))) {
      const m = /^-?[0-9]+(\.[0-9]+)?/.exec(sql.slice(i))!;
      out.push({ t: "number", v: m[0] });
      i += m[0].length;
    } else if (/[A-Za-z_"]/.test(ch)) {
      const m = /^("[^"]+"|[A-Za-z_][A-Za-z0-9_]*)(\.("[^"]+"|[A-Za-z_][A-Za-z0-9_]*))?/.exec(sql.slice(i))!;
      out.push({ t: "word", v: m[0].replace(/"/g, "") });
      i += m[0].length;
    } else {
      const two = sql.slice(i, i + 2);
      if (["<>", "!=", ">=", "<="].includes(two)) {
        out.push({ t: "sym", v: two });
        i += 2;
      } else if ("(),=<>*;".includes(ch)) {
        out.push({ t: "sym", v: ch });
        i++;
      } else {
        throw new QueryError(`cubesql: unexpected character "${ch}".`);
      }
    }
  }
  if (out.at(-1)?.v === ";") out.pop();
  return out;
}

const KEYWORDS = new Set(["select", "from", "where", "group", "order", "by", "limit", "offset", "as", "and"]);

/** One selected column: the query member it reads and the name it is answered under. */
export interface SqlColumn {
  name: string;
  /** The key of the load row: a member, or `<member>.<granularity>`. */
  key: string;
  kind: "dimension" | "timeDimension" | "measure";
}

export interface SqlQuery {
  query: Query;
  columns: SqlColumn[];
}

/** Reads a simple SELECT over one cube of the deployment into a data-API query. */
export function parseSql(sql: string, cubes: readonly CubeData[]): SqlQuery {
  if (typeof sql !== "string" || sql.trim() === "")
    throw new QueryError('cubesql: send {"query": "SELECT ..."}.');
  const tokens = tokenize(sql);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (w: string) => peek()?.t === "word" && peek()!.v.toLowerCase() === w;
  const expectWord = (w: string) => {
    if (!isWord(w))
      throw new QueryError(`cubesql: expected ${w.toUpperCase()} near "${peek()?.v ?? "the end"}".`);
    pos++;
  };
  const expectSym = (s: string) => {
    if (peek()?.v !== s) throw new QueryError(`cubesql: expected "${s}" near "${peek()?.v ?? "the end"}".`);
    pos++;
  };

  expectWord("select");
  type Item = { fn: string | null; arg: string; granularity?: string; alias?: string };
  const items: Item[] = [];
  for (;;) {
    const tok = tokens[pos++];
    if (tok?.t !== "word" || KEYWORDS.has(tok.v.toLowerCase())) {
      throw new QueryError(`cubesql: expected a column near "${tok?.v ?? "the end"}".`);
    }
    let item: Item;
    if (peek()?.v === "(") {
      pos++;
      const fn = tok.v.toLowerCase();
      if (fn === "date_trunc") {
        const g = tokens[pos++];
        if (g?.t !== "string") throw new QueryError("cubesql: DATE_TRUNC needs a granularity in quotes.");
        expectSym(",");
        const arg = tokens[pos++];
        if (arg?.t !== "word") throw new QueryError("cubesql: DATE_TRUNC needs a time dimension.");
        item = { fn, arg: arg.v, granularity: g.v.toLowerCase() };
      } else {
        const arg = tokens[pos++];
        if (arg?.t !== "word") throw new QueryError(`cubesql: ${tok.v}() needs a measure.`);
        item = { fn, arg: arg.v };
      }
      expectSym(")");
    } else {
      item = { fn: null, arg: tok.v };
    }
    if (isWord("as")) {
      pos++;
      const alias = tokens[pos++];
      if (alias?.t !== "word") throw new QueryError("cubesql: AS needs a name.");
      item.alias = alias.v;
    }
    items.push(item);
    if (peek()?.v === ",") {
      pos++;
      continue;
    }
    break;
  }
  expectWord("from");
  const cubeTok = tokens[pos++];
  const cube = cubes.find((c) => c.seed.name === cubeTok?.v);
  if (!cube) throw new QueryError(`cubesql: unknown cube "${cubeTok?.v ?? ""}".`);
  const cubeName = cube.seed.name;
  const member = (ref: string) => {
    const name = ref.startsWith(`${cubeName}.`) ? ref.slice(cubeName.length + 1) : ref;
    if (name.includes("."))
      throw new QueryError(`cubesql: unknown column "${ref}" (the sandbox reads one cube per query).`);
    const dim = cube.seed.dimensions.find((d) => d.name === name);
    const measure = cube.seed.measures.find((m) => m.name === name);
    if (!dim && !measure) throw new QueryError(`cubesql: unknown column "${ref}" in cube "${cubeName}".`);
    return { full: `${cubeName}.${name}`, dim, measure };
  };

  const query: Query = {
    measures: [],
    dimensions: [],
    timeDimensions: [],
    filters: [],
    order: [],
    limit: MAX_LIMIT,
    offset: 0,
    total: false,
  };
  const columns: SqlColumn[] = [];
  for (const item of items) {
    const m = member(item.arg);
    if (item.fn === "date_trunc") {
      if (m.dim?.type !== "time") throw new QueryError(`cubesql: ${item.arg} is not a time dimension.`);
      if (!(GRANULARITIES as readonly string[]).includes(item.granularity!)) {
        throw new QueryError(
          `cubesql: granularity "${item.granularity}" is not one of ${GRANULARITIES.join(", ")}.`,
        );
      }
      const td: TimeDimensionQuery = { dimension: m.full, granularity: item.granularity as Granularity };
      query.timeDimensions.push(td);
      columns.push({
        name: item.alias ?? item.arg,
        key: `${m.full}.${item.granularity}`,
        kind: "timeDimension",
      });
    } else if (item.fn !== null) {
      if (!["measure", "sum", "count", "avg", "min", "max"].includes(item.fn) || !m.measure) {
        throw new QueryError(
          `cubesql: ${item.fn.toUpperCase()}(${item.arg}) is not supported: aggregate a measure.`,
        );
      }
      query.measures.push(m.full);
      columns.push({ name: item.alias ?? item.arg, key: m.full, kind: "measure" });
    } else {
      if (!m.dim)
        throw new QueryError(`cubesql: the measure ${item.arg} must be aggregated: MEASURE(${item.arg}).`);
      query.dimensions.push(m.full);
      columns.push({ name: item.alias ?? item.arg, key: m.full, kind: "dimension" });
    }
  }

  const literal = () => {
    const tok = tokens[pos++];
    if (tok?.t !== "string" && tok?.t !== "number")
      throw new QueryError(`cubesql: expected a literal near "${tok?.v ?? "the end"}".`);
    return tok.v;
  };
  if (isWord("where")) {
    pos++;
    for (;;) {
      const col = tokens[pos++];
      if (col?.t !== "word") throw new QueryError("cubesql: a WHERE condition starts with a column.");
      const full = member(col.v).full;
      let filter: Filter;
      const not = isWord("not");
      if (not) pos++;
      if (isWord("in")) {
        pos++;
        expectSym("(");
        const values = [literal()];
        while (peek()?.v === ",") {
          pos++;
          values.push(literal());
        }
        expectSym(")");
        filter = { member: full, operator: not ? "notEquals" : "equals", values };
      } else if (isWord("like") || isWord("ilike")) {
        pos++;
        const pattern = literal();
        const m = /^%([^%_]*)%$/.exec(pattern);
        if (!m) throw new QueryError("cubesql: LIKE takes '%text%' only.");
        filter = { member: full, operator: not ? "notContains" : "contains", values: [m[1]!] };
      } else if (!not && isWord("is")) {
        pos++;
        const negated = isWord("not");
        if (negated) pos++;
        expectWord("null");
        filter = { member: full, operator: negated ? "set" : "notSet" };
      } else if (!not && peek()?.t === "sym") {
        const op = tokens[pos++]!.v;
        const value = literal();
        const ops: Record<string, Filter & { member: string }> = {
          "=": { member: full, operator: "equals", values: [value] },
          "<>": { member: full, operator: "notEquals", values: [value] },
          "!=": { member: full, operator: "notEquals", values: [value] },
          ">": { member: full, operator: "gt", values: [value] },
          ">=": { member: full, operator: "gte", values: [value] },
          "<": { member: full, operator: "lt", values: [value] },
          "<=": { member: full, operator: "lte", values: [value] },
        };
        const f = ops[op];
        if (!f) throw new QueryError(`cubesql: operator "${op}" is not supported.`);
        filter = f;
      } else {
        throw new QueryError(`cubesql: cannot read the condition on ${col.v}.`);
      }
      query.filters.push(filter);
      if (isWord("and")) {
        pos++;
        continue;
      }
      break;
    }
  }
  if (isWord("group")) {
    pos++;
    expectWord("by");
    // Grouping is by every selected dimension, as the REST API groups; the list is read and not used.
    while (peek() && !isWord("order") && !isWord("limit") && !isWord("offset")) pos++;
  }
  if (isWord("order")) {
    pos++;
    expectWord("by");
    for (;;) {
      const tok = tokens[pos++];
      let col: SqlColumn | undefined;
      if (tok?.t === "number") col = columns[Number(tok.v) - 1];
      else if (tok?.t === "word") {
        col = columns.find((c) => c.name === tok.v);
        if (!col) {
          const full = member(tok.v).full;
          col = columns.find(
            (c) => c.key === full || (c.kind === "timeDimension" && c.key.startsWith(`${full}.`)),
          );
        }
      }
      if (!col) throw new QueryError(`cubesql: ORDER BY ${tok?.v ?? ""} names no selected column.`);
      let dir: "asc" | "desc" = "asc";
      if (isWord("asc") || isWord("desc")) dir = tokens[pos++]!.v.toLowerCase() as "asc" | "desc";
      query.order.push([col.key, dir]);
      if (peek()?.v === ",") {
        pos++;
        continue;
      }
      break;
    }
  }
  const whole = (what: string) => {
    const tok = tokens[pos++];
    if (tok?.t !== "number" || !/^\d+$/.test(tok.v))
      throw new QueryError(`cubesql: ${what} needs a whole number.`);
    return Number(tok.v);
  };
  if (isWord("limit")) {
    pos++;
    query.limit = whole("LIMIT");
    if (query.limit > MAX_LIMIT)
      throw new QueryError(`cubesql: LIMIT ${query.limit} is above the maximum of ${MAX_LIMIT} rows.`);
  }
  if (isWord("offset")) {
    pos++;
    query.offset = whole("OFFSET");
  }
  if (pos < tokens.length) throw new QueryError(`cubesql: cannot read "${tokens[pos]!.v}" and what follows.`);
  return { query, columns };
}

function sqlLiteral(v: string | number): string {
  return typeof v === "number" || /^-?\d+(\.\d+)?$/.test(v)
    ? String(v)
    : `'${String(v).replace(/'/g, "''")}'`;
}

/**
 * A query in the SQL `parseSql` reads (one cube; `or`/`and` groups, date ranges and operators the
 * SQL form lacks answer null: such a report has no `sqlQuery`).
 */
export function toSql(query: Query): string | null {
  const members = [...query.dimensions, ...query.measures, ...query.timeDimensions.map((t) => t.dimension)];
  const cube = members[0]?.split(".")[0];
  if (!cube) return null;
  const short = (m: string) => m.slice(m.indexOf(".") + 1);
  const select: string[] = [];
  for (const d of query.dimensions) select.push(short(d));
  for (const td of query.timeDimensions) {
    if (td.granularity)
      select.push(
        `DATE_TRUNC('${td.granularity}', ${short(td.dimension)}) AS ${short(td.dimension)}_${td.granularity}`,
      );
  }
  for (const m of query.measures) select.push(`MEASURE(${short(m)}) AS ${short(m)}`);
  const where: string[] = [];
  for (const td of query.timeDimensions) {
    if (!td.dateRange) continue;
    const [from, to] = td.dateRange;
    const end = /^\d{4}-\d{2}-\d{2}$/.test(to) ? `${to}T23:59:59.999` : to;
    where.push(`${short(td.dimension)} >= '${from}'`, `${short(td.dimension)} <= '${end}'`);
  }
  for (const f of query.filters) {
    if (!("member" in f)) return null;
    const col = short(f.member);
    const values = f.values ?? [];
    switch (f.operator) {
      case "equals":
        where.push(
          values.length === 1
            ? `${col} = ${sqlLiteral(values[0]!)}`
            : `${col} IN (${values.map(sqlLiteral).join(", ")})`,
        );
        break;
      case "notEquals":
        where.push(
          values.length === 1
            ? `${col} <> ${sqlLiteral(values[0]!)}`
            : `${col} NOT IN (${values.map(sqlLiteral).join(", ")})`,
        );
        break;
      case "gt":
      case "gte":
      case "lt":
      case "lte":
        where.push(
          `${col} ${{ gt: ">", gte: ">=", lt: "<", lte: "<=" }[f.operator]} ${sqlLiteral(values[0]!)}`,
        );
        break;
      case "set":
        where.push(`${col} IS NOT NULL`);
        break;
      case "notSet":
        where.push(`${col} IS NULL`);
        break;
      case "contains":
      case "notContains":
        if (values.length !== 1) return null;
        where.push(
          `${col} ${f.operator === "contains" ? "ILIKE" : "NOT ILIKE"} ${sqlLiteral(`%${values[0]}%`)}`,
        );
        break;
      default:
        return null;
    }
  }
  const groupCount = query.dimensions.length + query.timeDimensions.filter((t) => t.granularity).length;
  let sql = `SELECT ${select.join(", ")} FROM ${cube}`;
  if (where.length) sql += ` WHERE ${where.join(" AND ")}`;
  if (groupCount > 0 && query.measures.length > 0) {
    sql += ` GROUP BY ${Array.from({ length: groupCount }, (_, i) => i + 1).join(", ")}`;
  }
  if (query.order.length) {
    const name = (m: string) => {
      const parts = m.split(".");
      return parts.length === 3 ? `${parts[1]}_${parts[2]}` : short(m);
    };
    sql += ` ORDER BY ${query.order.map(([m, d]) => `${name(m)} ${d.toUpperCase()}`).join(", ")}`;
  }
  sql += ` LIMIT ${query.limit}`;
  if (query.offset) sql += ` OFFSET ${query.offset}`;
  return sql;
}
