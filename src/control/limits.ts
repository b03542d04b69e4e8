/**
 * The limits of what the control API makes (shops, customers, scenarios and their rules), checked
 * before anything is made. A call over one is 422 VALIDATION_ERROR naming the limit, its value
 * and the flag and variable that raise it.
 * @module
 */
import { envName, flagName, type Limits } from "../config.js";
import type { Engine } from "../engine/engine.js";
import { DomainError } from "../engine/errors.js";
import type { FieldIssue } from "../http/errors.js";
import { VALUE_BYTES } from "../scenarios/limits.js";

function overLimit(option: keyof Limits, limit: number, what: string, field: Pick<FieldIssue, "in" | "path">): DomainError {
  const message = `${what}, over the limit of ${limit} (raise it with ${flagName(option)} or ${envName(option)})`;
  const issue: FieldIssue = { ...field, message };
  return new DomainError("VALIDATION_ERROR", message, [issue]);
}

/** A new shop with `customers` generated customers. */
export function checkNewShop(engine: Engine, limits: Limits, customers: number): void {
  const shops = engine.shopCount + 1;
  if (shops > limits.maxShops) throw overLimit("maxShops", limits.maxShops, `A new shop would make ${shops} shops`, { in: "body", path: "(root)" });
  checkMoreCustomers(engine, limits, customers, "customers");
}

/** `added` more customers (in a new shop, or one created in a shop). */
export function checkMoreCustomers(engine: Engine, limits: Limits, added: number, path = "(root)"): void {
  const total = engine.customerCount + added;
  if (total > limits.maxCustomers) {
    throw overLimit("maxCustomers", limits.maxCustomers, `${added} more customer${added === 1 ? "" : "s"} would make ${total} over all shops`, { in: "body", path });
  }
}

/**
 * A scenario of `rules` rules that would give its shop `scenarios` scenarios of its own, and hold
 * `bytes` (`scenarioBytes`) of the `total` the scenarios of all shops would then hold.
 */
export function checkScenario(limits: Limits, rules: number, scenarios: number, bytes: number, total: number): void {
  if (rules > limits.maxScenarioRules) {
    throw overLimit("maxScenarioRules", limits.maxScenarioRules, `The scenario has ${rules} rules`, { in: "body", path: "rules" });
  }
  if (scenarios > limits.maxScenarios) {
    throw overLimit("maxScenarios", limits.maxScenarios, `A new scenario would give this shop ${scenarios} scenarios`, { in: "body", path: "name" });
  }
  if (total > limits.maxScenarioBytes) {
    const what = `The scenario (${bytes} bytes: its JSON text, plus ${VALUE_BYTES} for each JSON value) would make the scenarios of all shops hold ${total} bytes`;
    throw overLimit("maxScenarioBytes", limits.maxScenarioBytes, what, { in: "body", path: "(root)" });
  }
}
