/**
 * Regression (issue 26, case 15 c): `Prefer: constructor=1` was refused as "given twice": the
 * check for a repeated preference asked `key in out`, which finds the names every object inherits
 * (`constructor`, `toString`, `__proto__`...). Only the object's own keys count now; such a name
 * is an unknown preference like any other.
 */
import { describe, expect, it } from "vitest";
import { parsePrefer } from "../../src/scenarios/prefer.js";
import { refusal } from "../support/sim.js";
import { graphqlOverHttp } from "../graphql/http-sim.js";

const INHERITED = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];
const UNKNOWN = "unknown preference; loyalty-sim takes error=CODE, status=NNN and delay=MS";

describe("issue 26, case 15 (c): `Prefer: constructor=1` is \"given twice\"", () => {
  it.each(INHERITED)("Prefer: %s=1 is an unknown preference, over REST and GraphQL", async (name) => {
    const sim = graphqlOverHttp({ customers: 2 });
    const rest = await sim.call("GET", "/shop", { headers: { Prefer: `${name}=1` } });
    expect(rest.status).toBe(422);
    expect(rest.body.error.details).toStrictEqual([{ in: "header", path: "Prefer", message: `${name}=1: ${UNKNOWN}` }]);
    const gql = await sim.post("{ shop { currency } }", undefined, { headers: { Prefer: `${name}=1` } });
    expect(gql.status).toBe(422);
    expect(gql.body.errors[0].extensions.details).toStrictEqual([{ in: "header", path: "Prefer", message: `${name}=1: ${UNKNOWN}` }]);
  });

  it("a preference given twice is still refused as such, and inherited names do not hide it", () => {
    expect(refusal(() => parsePrefer("status=500, status=502")).details).toStrictEqual([{ in: "header", path: "Prefer", message: "status=502: is given twice" }]);
    expect(refusal(() => parsePrefer("delay=5, delay=6")).details).toStrictEqual([{ in: "header", path: "Prefer", message: "delay=6: is given twice" }]);
    expect(parsePrefer("delay=5, error=RATE_LIMITED")).toStrictEqual({ delayMs: 5, error: "RATE_LIMITED" });
  });
});
