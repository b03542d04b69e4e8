/**
 * Regression (issue 17, case 14): the contract returns `nextReward` only from
 * `GET /customers/{id}`; `PATCH /customers/{id}` and `POST /customers/{id}/tier` returned it too,
 * and the OpenAPI document described their answers as the full Customer.
 */
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/simulator/openapi-document.js";
import { createTestSim } from "../support/sim.js";

describe("nextReward only on GET /customers/{id}", () => {
  it.each([
    ["PATCH", "", { birthday_month: 3, birthday_day: 14 }],
    ["POST", "/tier", { tier_id: 2 }],
  ])("%s /customers/{id}%s answers the customer without nextReward", async (method, suffix, body) => {
    const sim = createTestSim({ customers: 5 });
    const id = sim.activeCustomer();
    const read = (await sim.call("GET", `/customers/${id}`)).body.data;
    expect(read.nextReward).toStrictEqual({ id: "101", name: expect.any(String) });
    const res = await sim.call(method, `/customers/${id}${suffix}`, { body });
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty("nextReward");
    const { nextReward: _, ...rest } = (await sim.call("GET", `/customers/${id}`)).body.data;
    expect(res.body.data).toStrictEqual(rest);
  });

  it.each(["/rest_api/v1/customers/{id}#patch", "/rest_api/v1/customers/{id}/tier#post"])("the OpenAPI document gives %s the customer summary", (where) => {
    const [path, method] = where.split("#") as [string, string];
    const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, any> }>> };
    const schema = doc.paths[path]![method]!.responses["200"].content["application/json"].schema;
    expect(schema.properties.data).toStrictEqual({ $ref: "#/components/schemas/CustomerSummary" });
  });
});
