/**
 * The GraphQL twin's reads: one query document (query operations only) selecting every field the
 * contract gives each record, answered field by field as REST answers the same reads.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import { OPERATIONS, type OperationId } from "../../contract/index.js";
import type { Exchange } from "../client.js";
import type { Step } from "../plan.js";
import { at as fieldAt, field, listOf, recordOf } from "../read.js";
import { fieldsOf, inner, isInstant, selection } from "../shapes.js";
import { brief, dataOf, show, type Check, type Judge } from "./check.js";
import { WALK_LIMIT } from "./pagination.js";

/** Fields a report names as differing without writing their values: a real customer's details. */
const PERSONAL = new Set(["firstName", "lastName", "email", "dateOfBirth"]);

/** Each read the document makes, by the REST step that makes the same read. */
const READS: [step: string, op: OperationId][] = [
  ["shop", "getShop"],
  ["tiers", "listTiers"],
  ["earn-rules", "listEarnRules"],
  ["rewards", "listRewards"],
  ["beacons", "listBeacons"],
  ["customer", "getCustomer"],
  ["activities.page1", "listActivities"],
  ["codes", "listRewardCodes"],
];

/** The root field of an operation, its path ids given `$id`, a page limited as the REST walk is. */
function rootField(id: OperationId): string {
  const op = OPERATIONS[id];
  const twin = op.graphql!;
  const args = Object.entries(twin.args).flatMap(([name, arg]) => {
    if (!("to" in arg)) return [];
    if (arg.to.in === "path") return [`${name}: $id`];
    if (arg.to.name === "limit") return [`${name}: ${WALK_LIMIT}`];
    return [];
  });
  const record = selection(op.answer.schema);
  const selected = op.answer.kind === "page" ? `{ items ${record} pageInfo { hasNext hasPrevious } }` : record;
  return `${twin.field}${args.length > 0 ? `(${args.join(", ")})` : ""} ${selected}`;
}

export const GRAPHQL_DOCUMENT = `query LoyaltySimVerify($id: ID!) { ${READS.map(([, op]) => rootField(op)).join(" ")} }`;

export const graphqlStep: Step = { key: "graphql", phase: "read", op: "graphql", needs: ["customer"], body: (value) => ({ query: GRAPHQL_DOCUMENT, variables: { id: value("customer") } }) };

/** Whether a REST value and a GraphQL value say the same: absent is null, instants by instant, a digit string by its number. */
function same(schema: z.ZodType, rest: unknown, graphql: unknown): boolean {
  const r = rest === undefined ? null : rest;
  if (isInstant(schema) && typeof r === "string" && typeof graphql === "string") return Date.parse(r) === Date.parse(graphql);
  if (typeof r === "string" && typeof graphql === "number") return r === String(graphql);
  return Object.is(r, graphql);
}

function compare(judge: Judge, schema: z.ZodType, rest: unknown, graphql: unknown, at: string, request: string): number {
  const record = inner(schema);
  if (Array.isArray(rest) || Array.isArray(graphql)) {
    if (!Array.isArray(rest) || !Array.isArray(graphql) || rest.length !== graphql.length) {
      judge.problem(`${at}: REST ${Array.isArray(rest) ? rest.length : show(rest)} items, GraphQL ${Array.isArray(graphql) ? graphql.length : show(graphql)}`, request);
      return 0;
    }
    return rest.reduce<number>((n, item, i) => n + compare(judge, record, item, graphql[i], `${at}[${i}]`, request), 0);
  }
  const fields = fieldsOf(record);
  if (fields.length > 0 && recordOf(rest) && recordOf(graphql)) {
    return fields.reduce((n, [key, schema]) => n + compare(judge, schema, field(rest, key), field(graphql, key), `${at}.${key}`, request), 0);
  }
  if (same(schema, rest, graphql)) return 1;
  const key = at.replace(/^.*\./, "");
  judge.problem(PERSONAL.has(key) ? `${at}: REST and GraphQL differ` : `${at}: REST ${show(rest)}, GraphQL ${show(graphql)}`, request);
  return 1;
}

/** The GraphQL answer's data, or a problem for each error it has. */
function graphqlData(judge: Judge, answer: Exchange): Readonly<Record<string, unknown>> | undefined {
  const errors = field(answer.body, "errors");
  if (errors !== undefined && !Array.isArray(errors)) judge.problem(`errors: ${show(errors)}, expected a list`, answer.request);
  for (const error of listOf(errors) ?? []) {
    const path = listOf(field(error, "path"))?.map((p) => (typeof p === "string" || typeof p === "number" ? String(p) : show(p)));
    judge.problem(`GraphQL error${path ? ` at ${brief(path.join("."))}` : ""}: ${show(field(error, "message"))}`, answer.request);
  }
  const data = recordOf(field(answer.body, "data"));
  if (answer.status !== 200 || !data) {
    judge.problem(`answered ${answer.status} without data`, answer.request);
    return undefined;
  }
  return data;
}

function twinCheck(id: string, title: string, reads: [string, OperationId][]): Check {
  return {
    id,
    title,
    basis: "documented",
    phase: "read",
    expected: "every field the same by GraphQL as by REST (absent in REST is null in GraphQL; instants the same instant)",
    steps: [graphqlStep.key, ...reads.map(([step]) => step)],
    judge({ answers }, judge) {
      const answer = answers.get(graphqlStep.key);
      const data = graphqlData(judge, answer);
      if (!data) return;
      let fields = 0;
      for (const [step, opId] of reads) {
        const op = OPERATIONS[opId];
        const rest = answers.get(step);
        const twin = op.graphql!.field;
        const value = op.answer.kind === "page" ? fieldAt(data, twin, "items") : field(data, twin);
        const schema = op.answer.schema as z.ZodType;
        fields += compare(judge, schema, dataOf(rest), value, twin, answer.request);
        if (op.answer.kind === "page") {
          for (const flag of ["hasNext", "hasPrevious"]) {
            const [restFlag, twinFlag] = [fieldAt(rest.body, "meta", "pagination", flag), fieldAt(data, twin, "pageInfo", flag)];
            if (restFlag !== twinFlag) judge.problem(`${twin}.pageInfo.${flag}: REST ${show(restFlag)}, GraphQL ${show(twinFlag)}`, answer.request);
          }
        }
      }
      judge.observed = `${fields} fields the same`;
    },
  };
}

export const graphqlChecks: Check[] = [
  twinCheck("read.graphql.customer", "The customer, its activities and codes agree by REST and GraphQL", READS.slice(5)),
  twinCheck("read.graphql.program", "The shop, tiers, earn rules, rewards and beacons agree by REST and GraphQL", READS.slice(0, 5)),
];
