/**
 * Regression (issue 26, case 15 b): a valid document selecting one field 1000 times was refused
 * with graphql-js's opaque "Validation aborted." though it was under the documented caps (2000
 * fields): graphql-js 16.15 stops its check that same-named fields can be merged after a budget of
 * steps, and compares every pair of them. The caps now say how often one field may be selected at
 * one place of the response, and the refusal says so; a document graphql-js still gives up on is
 * refused with a message that says why.
 */
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { GRAPHQL_LIMITS, validateDocument } from "../../src/graphql/documents.js";
import { expectRequestError, graphqlSim } from "../graphql/graphql-sim.js";

const { repeats } = GRAPHQL_LIMITS;

describe("issue 26, case 15 (b): a valid document with 1000 repeated fields is refused with \"Validation aborted.\"", () => {
  it("1000 repeated fields, under the fields cap, are refused by a cap that names the field, what it allows and what to do", async () => {
    const sim = graphqlSim({ customers: 2 });
    const res = await sim.gql(`{ shop { ${"programName ".repeat(1000)}} }`);
    expectRequestError(res, 200, [`A field may be selected at most ${repeats} times at one place of the response (fragments expanded); shop.programName is selected 1000 times: select it once.`]);
  });

  it("repeats through fragments and merged parents count: 2 shop fields x 26 programName", async () => {
    const sim = graphqlSim({ customers: 2 });
    const res = await sim.gql(`{ shop { ...F } shop { ...F } } fragment F on Shop { ${"programName ".repeat(26)}}`);
    expectRequestError(res, 200, [`A field may be selected at most ${repeats} times at one place of the response (fragments expanded); shop.programName is selected 52 times: select it once.`]);
  });

  it("a field selected as often as the cap allows is answered", async () => {
    const sim = graphqlSim({ customers: 2 });
    const res = await sim.gql(`{ shop { ${"programName ".repeat(repeats)}} c: shop { ${Array.from({ length: 38 }, (_, i) => `a${i}: currency `.repeat(repeats)).join("")}} }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.shop).toStrictEqual({ programName: "Crumb & Bean Rewards" });
    expect(Object.keys(res.body.data.c)).toHaveLength(38);
  });

  it("counting the repeats stays bounded: spreads doubling 40 times into an unknown fragment are answered at once", async () => {
    const sim = graphqlSim({ customers: 2 });
    let query = "{ shop { ...X0 } } ";
    for (let i = 0; i < 40; i++) query += `fragment X${i} on Shop { ...X${i + 1} ...X${i + 1} } `;
    // Unbounded, the walk takes 2^40 steps: the test's timeout would end it.
    const res = await sim.gql(`${query}fragment X40 on Shop { ...Nope }`);
    expectRequestError(res, 200, ['Unknown fragment "Nope".']);
  });

  it("were graphql-js to give up all the same, the refusal says why instead of \"Validation aborted.\"", () => {
    const errors = validateDocument(parse(`{ shop { ${"programName ".repeat(1000)}} }`));
    expect(errors.map((e) => e.message)).toStrictEqual([
      "The document is too costly to validate: graphql-js gave up part way (it bounds its steps comparing fields of one name at one place, and following fragment spreads). Select each field, and spread each fragment, once at one place.",
    ]);
  });
});
