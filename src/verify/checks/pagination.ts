/**
 * Cursor pagination, as production documents it for the customers and the activities: a first
 * page counted, the next one by `after`, back by `before`, and cursors that are base64 of
 * `id:<id>` naming the page's first and last records.
 * @module
 */
import type { OperationId } from "../../contract/index.js";
import type { Exchange } from "../client.js";
import type { Step } from "../plan.js";
import { at, recordOf, recordsOf, type Rec } from "../read.js";
import { dataOf, show, succeeded, type Check, type Judge } from "./check.js";

/** The page size verify walks with: small, so a short list has a second page and production sends little. */
export const WALK_LIMIT = "2";

/** An answer's `meta.pagination` when it is a record: hasNext, hasPrevious, nextCursor, previousCursor, count. */
export const paginationOf = (exchange: Exchange): Rec | undefined => recordOf(at(exchange.body, "meta", "pagination"));
const idsOf = (exchange: Exchange): unknown[] => (recordsOf(dataOf(exchange)) ?? []).map((item) => item.id);

/** The three steps of a walk: a first page with its count, the next page, and back to the first. */
export function walkSteps(prefix: string, op: OperationId, more: { params?: Record<string, string>; onFirstPage?: Step["bind"]; onFirstPageBinds?: string[] } = {}): [Step, Step, Step] {
  const base = { phase: "read", op, ...(more.params && { params: more.params }) } as const;
  return [
    {
      ...base,
      key: `${prefix}.page1`,
      query: { limit: WALK_LIMIT, hasCount: "true" },
      binds: [`${prefix}.next`, ...(more.onFirstPageBinds ?? [])],
      bind(answer, context) {
        const { vars } = context;
        more.onFirstPage?.(answer, context);
        const p = paginationOf(answer);
        if (p?.hasNext === true && typeof p.nextCursor === "string") vars.set(`${prefix}.next`, p.nextCursor);
        else vars.miss(`${prefix}.next`, `the list has no second page of ${WALK_LIMIT} (count ${show(p?.count)}; answered ${answer.status})`);
      },
    },
    {
      ...base,
      key: `${prefix}.page2`,
      query: { limit: WALK_LIMIT, after: `{${prefix}.next}` },
      binds: [`${prefix}.prev`],
      bind(answer, { vars }) {
        const p = paginationOf(answer);
        if (typeof p?.previousCursor === "string") vars.set(`${prefix}.prev`, p.previousCursor);
        else vars.miss(`${prefix}.prev`, `the second page has no previousCursor (answered ${answer.status})`);
      },
    },
    { ...base, key: `${prefix}.back`, query: { limit: WALK_LIMIT, before: `{${prefix}.prev}` } },
  ];
}

/** The walk: page 2 follows page 1 with other records, `before` comes back to page 1, the flags and the count as documented. */
export function walkCheck(id: string, title: string, [page1, page2, back]: [Step, Step, Step]): Check {
  return {
    id,
    title,
    basis: "documented",
    phase: "read",
    expected: `limit=${WALK_LIMIT}&hasCount=true: ${WALK_LIMIT} records, hasPrevious false, an integer count; after=nextCursor: other records, hasPrevious true, count null; before=previousCursor of page 2: page 1 again`,
    steps: [page1.key, page2.key, back.key],
    judge({ answers }, judge) {
      const [one, two, again] = [answers.get(page1.key), answers.get(page2.key), answers.get(back.key)];
      if (![one, two, again].every((answer) => succeeded(judge, answer))) return;
      const [p1, p2, pb] = [one, two, again].map(paginationOf);
      const [ids1, ids2, idsBack] = [one, two, again].map(idsOf) as [unknown[], unknown[], unknown[]];
      expectFlags(judge, one, p1, { hasPrevious: false, hasNext: true });
      if (typeof p1?.count !== "number" || !Number.isInteger(p1.count) || p1.count < ids1.length) judge.problem(`page 1 count: ${show(p1?.count)}, expected an integer of at least its records`, one.request);
      judge.equal("page 1 records", ids1.length, Number(WALK_LIMIT), one.request);
      expectFlags(judge, two, p2, { hasPrevious: true });
      judge.equal("page 2 count (no hasCount)", p2?.count, null, two.request);
      const onPage1 = new Set(ids1);
      if (ids2.length === 0 || ids2.some((x) => onPage1.has(x))) judge.problem(`page 2 records ${show(ids2)} do not follow page 1's ${show(ids1)}`, two.request);
      judge.same("records before page 2", idsBack, ids1, again.request);
      expectFlags(judge, again, pb, { hasPrevious: false, hasNext: true });
      judge.observed = `page 1 ${show(ids1)} of ${show(p1?.count)}, page 2 ${show(ids2)}, back ${show(idsBack)}`;
    },
  };
}

function expectFlags(judge: Judge, answer: Exchange, p: Rec | undefined, flags: Partial<Record<"hasNext" | "hasPrevious", boolean>>): void {
  if (!p) return judge.problem("meta.pagination: missing", answer.request);
  for (const [flag, wanted] of Object.entries(flags)) judge.equal(`meta.pagination.${flag}`, p[flag], wanted, answer.request);
}

/** The record id a cursor names, when it is base64 of `id:<digits>`. */
export function cursorId(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cursor) || cursor.length % 4 !== 0) return undefined;
  return /^id:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"))?.[1];
}

/** Every page's cursors decode as documented and name its last (`nextCursor`) and first (`previousCursor`) records. */
export function cursorsCheck(id: string, firstPages: Step[], morePages: Step[]): Check {
  return {
    id,
    title: "Cursors are base64 of id:<id>, naming the page's last and first records",
    basis: "documented",
    phase: "read",
    expected: "nextCursor = base64('id:' + the last record's id), previousCursor = base64('id:' + the first record's id), also on a first page",
    steps: firstPages.map((s) => s.key),
    judge({ answers }, judge) {
      let cursors = 0;
      for (const step of [...firstPages, ...morePages]) {
        if (!answers.has(step.key)) continue;
        const answer = answers.get(step.key);
        const ids = idsOf(answer);
        const p = paginationOf(answer);
        if (answer.status !== 200 || !p || ids.length === 0) continue;
        for (const [field, record] of [["nextCursor", ids.at(-1)], ["previousCursor", ids[0]]] as const) {
          const cursor = p[field];
          cursors++;
          if (typeof cursor !== "string") judge.problem(`${field}: ${show(cursor)}, expected a cursor`, answer.request, `${field} absent`);
          else if (cursorId(cursor) === undefined) judge.problem(`${field} ${show(cursor)} is not base64 of id:<id> (it decodes to ${show(Buffer.from(cursor, "base64").toString("utf8"))})`, answer.request, `${field} format`);
          else if (cursorId(cursor) !== record) judge.problem(`${field} names record ${cursorId(cursor)}, expected ${show(record)}`, answer.request, `${field} record`);
        }
      }
      judge.observed = `${cursors} cursors decode to the records they name`;
    },
  };
}
