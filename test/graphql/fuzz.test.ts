/**
 * Generated operations over every root field, one shop building up state across runs: real and
 * unknown ids, merged and removed customers, extreme numbers, long and odd text, cursors real and
 * not, values of the wrong type. Every answer must be a 200 GraphQL response whose errors are
 * codes of the catalogue or graphql-js's own messages, never INTERNAL_ERROR; a request refused
 * whole, or whose every root field failed, changes nothing; and every balance stays the sum of its
 * ledger (acceptance check 40). Replay a failure with `FC_SEED=<seed>`; `FC_RUNS` scales the runs.
 * @module
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOG } from "../../src/http/errors.js";
import { documentOf, operation } from "./generated-operations.js";
import { graphqlSim } from "./graphql-sim.js";

const SEED = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.FC_RUNS ?? 150);
const CODES = new Set([...Object.keys(ERROR_CATALOG), "TIER_UPDATE_FAILED"]);

const sim = graphqlSim({ customers: 12, access: { rateLimit: null } });
const customers = () => sim.shop.store.data.customers;

describe("generated operations over every root field", () => {
  it("answer GraphQL responses of documented codes; refusals change nothing; ledgers hold", async () => {
    await fc.assert(
      fc.asyncProperty(operation, async (op) => {
        const { query, variables } = documentOf(op, sim.shop);
        // Stamps that expired by now leave when their customer is next read, whatever the request.
        for (const c of customers()) sim.shop.getCustomer(c.id);
        const before = JSON.stringify(sim.shop.store.data);
        const res = await sim.gql(query, variables);
        expect(res.status).toBe(200);
        const errors: { message: string; path?: (string | number)[] }[] = res.body.errors ?? [];
        if (!("data" in res.body)) {
          expect(errors.length).toBeGreaterThan(0);
          expect(JSON.stringify(sim.shop.store.data)).toBe(before);
          return;
        }
        for (const error of errors) {
          expect(error.message).not.toBe("INTERNAL_ERROR");
          if (error.path?.length === 1) expect(CODES, error.message).toContain(error.message);
          else expect(error.message, JSON.stringify(error)).toMatch(/^Int cannot represent non 32-bit signed integer value: "?\d+"?$/);
        }
        const failed = new Set(errors.filter((e) => e.path?.length === 1).map((e) => e.path![0]));
        if (op.calls.every((_, i) => failed.has(`f${i}`))) expect(JSON.stringify(sim.shop.store.data)).toBe(before);
        expect(sim.shop.ledgerMismatches()).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });
});
