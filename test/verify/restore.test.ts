/**
 * The restore lines are requests a person pastes: a target's value goes into one only when it is
 * what the contract says it is. A code id that is not digits (a path, a space, a second request)
 * makes the codes unreadable, and the lines come from the run's own record instead.
 */
import { describe, expect, it } from "vitest";
import { Answers, Vars, type Step } from "../../src/verify/plan.js";
import type { Exchange } from "../../src/verify/request.js";
import { restoreRequests, stateOf } from "../../src/verify/restore.js";

const CUSTOMER = "6000482134080";
const answer = (data: unknown): Exchange => ({ request: "GET /x", method: "GET", path: "/x", wrongSecret: false, status: 200, headers: {}, body: { success: true, data } });
const step = (key: string): Step => ({ key, phase: "write", op: "getCustomer" });

function answered(codesAfter: { id: string; used: boolean }[]) {
  const answers = new Answers();
  answers.record(step("before.customer"), answer({ stampBalance: 34, vipTierId: 1 }));
  answers.record(step("before.codes"), answer([{ id: "100001", used: false }]));
  answers.record(step("after.customer"), answer({ stampBalance: 34, vipTierId: 1 }));
  answers.record(step("after.codes"), answer(codesAfter));
  return answers;
}

describe("restore lines from a target's values", () => {
  it("void a new active code by its id when the id is digits", () => {
    const answers = answered([{ id: "100001", used: false }, { id: "100002", used: false }]);
    const before = stateOf(answers, "before.customer", "before.codes")!;
    expect(restoreRequests(CUSTOMER, before, stateOf(answers, "after.customer", "after.codes"), answers, new Vars())).toEqual([
      `POST /rest_api/v1/customers/${CUSTOMER}/reward-codes/100002/void`,
      `GET /rest_api/v1/customers/${CUSTOMER}, then if its stampBalance is not 34: POST /rest_api/v1/customers/${CUSTOMER}/stamps/adjust {"stamps": 34 minus that stampBalance}`,
    ]);
  });

  it.each([["../../tier"], ["1 {\"stamps\": 500}"], ["1\nPOST /rest_api/v1/customers/1/stamps/award"]])("never write a code id %j into a line: the codes do not read", (id) => {
    const answers = answered([{ id: "100001", used: false }, { id, used: false }]);
    const after = stateOf(answers, "after.customer", "after.codes");
    expect(after?.active).toBeNull();
    const lines = restoreRequests(CUSTOMER, stateOf(answers, "before.customer", "before.codes")!, after, answers, new Vars());
    expect(lines.filter((line) => line.includes(id))).toEqual([]);
  });
});
