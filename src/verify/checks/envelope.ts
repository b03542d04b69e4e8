/**
 * What every answer shares: the envelope of its kind, instants written with an offset, the quota
 * headers, ids as strings of digits. These checks judge every answer of the run.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { OPERATIONS } from "../../contract/index.js";
import { envelope, listEnvelope, pagedEnvelope } from "../../http/schemas.js";
import { at, field, keyText, recordsOf } from "../read.js";
import { fieldProblems, instants, OFFSET_INSTANT } from "../shapes.js";
import { kindOf, show, type Check } from "./check.js";
import type { JudgeContext } from "./check.js";

/** The REST answers of the run (GraphQL has its own forms), with their operations. */
function restAnswers({ answers }: JudgeContext) {
  return answers.all().flatMap(({ step, exchange }) => (step.op === "graphql" ? [] : [{ op: OPERATIONS[step.op], exchange }]));
}

const isSuccess = (body: unknown) => field(body, "success") === true;

const ENVELOPES = { one: envelope(z.unknown()), list: listEnvelope(z.unknown()), page: pagedEnvelope(z.unknown()) };

/** Response headers that carry the hourly quota. */
const QUOTA_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining"] as const;

/** Fields that hold a record id (strings of digits), and the one that holds a tier's number. */
const ID_FIELDS = new Set(["id", "customerId", "mergedIntoCustomerId"]);

export const envelopeChecks: Check[] = [
  {
    id: "read.envelope.shape",
    title: "Every success answer is in its kind's envelope",
    basis: "documented",
    phase: "read",
    expected: "{ success: true, data, timestamp }; small lists with meta.count (their length); cursor lists with meta.pagination { hasNext, hasPrevious, nextCursor, previousCursor, count }",
    steps: [],
    judge(context, judge) {
      let seen = 0;
      for (const { op, exchange } of restAnswers(context)) {
        if (exchange.status !== 200 || !isSuccess(exchange.body)) continue;
        seen++;
        const body = exchange.body;
        for (const problem of fieldProblems(ENVELOPES[op.answer.kind], body, "")) judge.problem(problem, exchange.request, kindOf(problem));
        const data = field(body, "data");
        if (data === undefined) judge.problem("data: missing", exchange.request);
        if (op.answer.kind === "list" && Array.isArray(data)) judge.equal("meta.count", at(body, "meta", "count"), data.length, exchange.request);
      }
      judge.observed = `${seen} success answers in their envelopes`;
    },
  },
  {
    id: "read.envelope.timestamps",
    title: "Instants are ISO 8601 with an explicit offset, never Z",
    basis: "documented",
    phase: "read",
    expected: "timestamp, createdAt and stampsExpireAt like 2026-06-05T12:00:00+00:00",
    steps: [],
    judge(context, judge) {
      let seen = 0;
      for (const { op, exchange } of restAnswers(context)) {
        const body = exchange.body;
        if (typeof body !== "object" || body === null) continue;
        const found: [string, unknown][] = [["timestamp", field(body, "timestamp")]];
        if (isSuccess(body)) found.push(...instants(op.answer.kind === "one" ? op.answer.schema : z.array(op.answer.schema), field(body, "data"), "data"));
        for (const [where, value] of found) {
          seen++;
          if (typeof value !== "string" || !OFFSET_INSTANT.test(value)) judge.problem(`${where}: ${show(value)}`, exchange.request, kindOf(where));
        }
      }
      judge.observed = `${seen} instants with an offset`;
    },
  },
  {
    id: "read.headers.quota",
    title: "Every answer carries X-RateLimit-Limit and X-RateLimit-Remaining",
    basis: "documented",
    phase: "read",
    expected: "both headers on every REST answer to valid credentials, integers, Remaining at most Limit",
    steps: [],
    judge(context, judge) {
      let seen = 0;
      for (const { exchange } of restAnswers(context)) {
        if (exchange.wrongSecret) continue;
        seen++;
        const [limit, remaining] = QUOTA_HEADERS.map((name) => exchange.headers[name]);
        for (const [name, value] of [[QUOTA_HEADERS[0], limit], [QUOTA_HEADERS[1], remaining]] as const) {
          if (value === undefined) judge.problem(`${name}: missing`, exchange.request, `${name} missing`);
          else if (!/^\d+$/.test(value)) judge.problem(`${name}: ${show(value)}, expected an integer`, exchange.request, `${name} not an integer`);
        }
        if (limit !== undefined && remaining !== undefined && Number(remaining) > Number(limit)) judge.problem(`X-RateLimit-Remaining ${remaining} is above X-RateLimit-Limit ${limit}`, exchange.request);
      }
      judge.observed = `${seen} answers with both headers`;
    },
  },
  {
    id: "read.ids",
    title: "Ids are strings of digits; vipTierId is an integer naming a tier",
    basis: "documented",
    phase: "read",
    expected: 'every id, customerId and mergedIntoCustomerId a string of digits ("44"); vipTierId an integer whose tier is listed',
    steps: ["tiers"],
    judge(context, judge) {
      const tierIds = new Set((recordsOf(context.answers.data("tiers")) ?? []).map((t) => t.id).filter((id) => typeof id === "string"));
      let seen = 0;
      const walk = (value: unknown, where: string, request: string): void => {
        if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${where}[${i}]`, request));
        if (typeof value !== "object" || value === null) return;
        for (const [key, field] of Object.entries(value)) {
          const at = `${where}.${keyText(key)}`;
          if (ID_FIELDS.has(key)) {
            seen++;
            if (typeof field !== "string" || !/^\d+$/.test(field)) judge.problem(`${at}: ${show(field)}, expected a string of digits`, request, kindOf(`${at} not digits`));
          } else if (key === "vipTierId") {
            seen++;
            if (!Number.isInteger(field)) judge.problem(`${at}: ${show(field)}, expected an integer`, request);
            else if (!tierIds.has(String(field))) judge.problem(`${at}: ${field} names no listed tier`, request);
          } else walk(field, at, request);
        }
      };
      for (const { exchange } of restAnswers(context)) if (isSuccess(exchange.body)) walk(field(exchange.body, "data"), "data", exchange.request);
      judge.observed = `${seen} ids`;
    },
  },
];
