/**
 * The field checks: each record of an answer against its operation's schema in the contract
 * (presence, type, null left out, no field the contract lacks), whatever the operation.
 * @module
 */
import { OPERATIONS } from "../../contract/index.js";
import type { Exchange } from "../client.js";
import type { Step } from "../plan.js";
import { dataOf, notAList, succeeded, type Check, type Judge } from "./check.js";

/**
 * Records of one answer checked field by field: a page holds at most 1,000. Past it a target's
 * list is still counted, but not checked record by record (each would cost the run memory).
 */
export const MAX_RECORDS_CHECKED = 1000;

/** The answer's records against the step's operation schema: one record, or each item of a list or page (the first MAX_RECORDS_CHECKED). */
export function judgeRecords(judge: Judge, step: Step, exchange: Exchange): void {
  if (step.op === "graphql") throw new Error("verify: GraphQL answers have no REST schema");
  if (!succeeded(judge, exchange)) return;
  const { kind, schema } = OPERATIONS[step.op].answer;
  const data = dataOf(exchange);
  if (kind === "one") return judge.fields(schema, data, "data", exchange);
  if (!Array.isArray(data)) return notAList(judge, data, exchange);
  data.slice(0, MAX_RECORDS_CHECKED).forEach((item, i) => judge.fields(schema, item, `data[${i}]`, exchange));
}

/** A check that every record the steps answered has the contract's fields. */
export function fieldsCheck(id: string, title: string, steps: Step[], expected: string): Check {
  return {
    id,
    title,
    basis: "documented",
    phase: steps[0]!.phase,
    expected,
    steps: steps.map((s) => s.key),
    judge({ answers }, judge) {
      let records = 0;
      for (const step of steps) {
        const exchange = answers.get(step.key);
        judgeRecords(judge, step, exchange);
        const data = dataOf(exchange);
        records += Array.isArray(data) ? data.length : data === undefined ? 0 : 1;
      }
      judge.observed = `${records} record${records === 1 ? "" : "s"} with the contract's fields`;
    },
  };
}
