/**
 * Customers: the list (walked both ways, its order, its default page size, the email filter) and
 * one customer, the one `--customer` names or else the first active one listed.
 * @module
 */
import { DEFAULT_PAGE_SIZE } from "../../contract/inputs.js";
import { TargetError } from "../client.js";
import type { Step } from "../plan.js";
import { kindOfValue, recordsOf, stringField } from "../read.js";
import { brief, dataOf, show, succeeded, type Check } from "./check.js";
import { fieldsCheck } from "./fields.js";
import { paginationOf, walkCheck, walkSteps } from "./pagination.js";

/** The customer the read checks look at, when --customer names none: the first active one listed. */
const chooseCustomer: Step["bind"] = (answer, { vars }) => {
  if (vars.get("customer") !== undefined) return;
  const data = dataOf(answer);
  const listed = recordsOf(data) ?? [];
  const chosen = listed.find((c) => c.state === "active" && c.mergedIntoCustomerId === undefined) ?? listed[0];
  const id = stringField(chosen, "id");
  if (id !== undefined) vars.set("customer", id);
  else vars.miss("customer", `the shop lists no customer (${answer.request} answered ${answer.status}${Array.isArray(data) ? "" : ` with data ${kindOfValue(data)}`})`);
};

export const customerWalk = walkSteps("customers", "listCustomers", { onFirstPage: chooseCustomer, onFirstPageBinds: ["customer"] });
const [page1, page2] = customerWalk;

const byDefault: Step = { key: "customers.default", phase: "read", op: "listCustomers" };

export const customer: Step = {
  key: "customer",
  phase: "read",
  op: "getCustomer",
  params: { id: "{customer}" },
  binds: ["email"],
  bind(answer, { vars }) {
    if (answer.status === 404) throw new TargetError(`customer ${vars.get("customer")} is not found at the target (404): check --customer`);
    const email = stringField(dataOf(answer), "email");
    if (email !== undefined && email !== "") vars.set("email", email);
    else vars.miss("email", "the customer has no email");
  },
};

const byEmail: Step = { key: "customers.email", phase: "read", op: "listCustomers", query: { email: "{email}" } };

export const customerSteps: Step[] = [...customerWalk, byDefault, customer, byEmail];

export const customerChecks: Check[] = [
  fieldsCheck("read.customers.fields", "Listed customers have the contract's fields (no nextReward)", [page1, page2], "each listed customer has the summary fields, of their types, null fields left out, no nextReward"),
  fieldsCheck("read.customer.fields", "One customer has the contract's fields, nextReward included", [customer], "the customer's fields, of their types, null fields left out; nextReward { id, name } when there is one"),
  walkCheck("read.customers.pages", "Customers page forward with after and back with before", customerWalk),
  {
    id: "read.customers.order",
    title: "Customers are listed oldest first (by ascending id)",
    // Production documents "oldest first"; that an older customer has the smaller id is the simulator's reading of Shopify ids.
    basis: "model",
    phase: "read",
    expected: "ids ascending across the first two pages (Shopify gives newer customers larger ids)",
    steps: [page1.key],
    judge({ answers }, judge) {
      const pages = [page1, page2].filter((s) => answers.has(s.key)).map((s) => answers.get(s.key));
      const listed = pages.map((p) => (recordsOf(dataOf(p)) ?? []).map((c) => c.id));
      const ids = listed.flat();
      if (!ids.every((id) => typeof id === "string" && /^\d+$/.test(id))) return judge.problem(`ids ${show(ids)} are not all digits`, pages[0]!.request);
      const digits = ids as string[];
      const unordered = digits.findIndex((id, i) => i > 0 && !idBefore(digits[i - 1]!, id));
      if (unordered > 0) judge.problem(`${brief(digits[unordered]!)} is listed after ${brief(digits[unordered - 1]!)}`, pages[unordered < listed[0]!.length ? 0 : 1]!.request);
      judge.observed = `ids ${brief(digits.join(", "))}`;
    },
  },
  {
    id: "read.pagination.default-limit",
    title: "A list without limit answers pages of 20",
    basis: "documented",
    phase: "read",
    expected: `${DEFAULT_PAGE_SIZE} customers, or all of them when there are fewer`,
    steps: [byDefault.key, page1.key],
    judge({ answers }, judge) {
      const answer = answers.get(byDefault.key);
      if (!succeeded(judge, answer)) return;
      const count = paginationOf(answers.get(page1.key))?.count;
      const got = judge.list(answer)?.length;
      if (got === undefined) return;
      if (typeof count === "number") judge.equal("customers on a page without limit", got, Math.min(DEFAULT_PAGE_SIZE, count), answer.request);
      else judge.problem(`the count of customers is unknown (${show(count)})`, answers.get(page1.key).request);
      judge.observed = `${got} of ${show(count)} customers`;
    },
  },
  {
    id: "read.customers.email",
    title: "?email= lists the customers with that email",
    basis: "documented",
    phase: "read",
    expected: "the customer among the answers, every answer with the same email",
    steps: [byEmail.key],
    judge({ answers, vars }, judge) {
      const answer = answers.get(byEmail.key);
      if (!succeeded(judge, answer)) return;
      const listed = judge.list(answer);
      if (!listed) return;
      const email = vars.get("email")!.toLowerCase();
      if (!listed.some((c) => c.id === vars.get("customer"))) judge.problem(`the customer is not among ${listed.length} answers`, answer.request);
      const others = listed.filter((c) => typeof c.email !== "string" || c.email.toLowerCase() !== email);
      if (others.length > 0) judge.problem(`${others.length} of ${listed.length} customers have another email`, answer.request);
      judge.observed = `${listed.length} customer${listed.length === 1 ? "" : "s"} with the email`;
    },
  },
];

/** Whether id `a` comes before id `b` by number: digit strings compared by length, then digit by digit (BigInt of a long string costs time a target could spend). */
function idBefore(a: string, b: string): boolean {
  const [x, y] = [a.replace(/^0+(?=\d)/, ""), b.replace(/^0+(?=\d)/, "")];
  return x.length !== y.length ? x.length < y.length : x < y;
}
