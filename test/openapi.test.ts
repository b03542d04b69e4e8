import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATION_IDS } from "../src/contract/index.js";
import { serializeOpenApiDocument } from "../src/simulator/openapi-document.js";

const committed = readFileSync(new URL("../openapi/openapi.json", import.meta.url), "utf8");
const doc = JSON.parse(committed);

const apiOperations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>)
    .filter(([path]) => path.startsWith("/rest_api/v1/"))
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe("OpenAPI document", () => {
  it("is the committed openapi/openapi.json (run `npm run openapi` after changing routes)", () => {
    expect(serializeOpenApiDocument()).toBe(committed);
  });

  it("is OpenAPI 3.1 with a server, both auth headers and the error envelope", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "http://127.0.0.1:4747", description: "loyalty-sim on its default port" }]);
    expect(doc.components.securitySchemes).toEqual({
      ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key", description: expect.any(String) },
      ApiSecret: { type: "apiKey", in: "header", name: "X-Api-Secret", description: expect.any(String) },
    });
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(["success", "error", "timestamp"]);
  });

  it("has exactly the contract's operationIds, each with summary, description and security", () => {
    const ops = apiOperations();
    expect(ops.map((o) => o.op.operationId).sort()).toEqual([...OPERATION_IDS].sort());
    for (const { op } of ops) {
      expect(op.summary, op.operationId).toBeTruthy();
      expect(op.description, op.operationId).toBeTruthy();
      expect(op.security, op.operationId).toEqual([{ ApiKey: [], ApiSecret: [] }]);
    }
  });

  it.each(OPERATION_IDS)("%s declares 200 and every common error status, each with the error envelope", (id) => {
    const { op } = apiOperations().find((o) => o.op.operationId === id)!;
    for (const status of ["401", "403", "413", "422", "429", "500"]) {
      expect(op.responses[status]?.content["application/json"].schema, `${id} ${status}`).toEqual({
        $ref: "#/components/schemas/ErrorEnvelope",
      });
    }
    expect(op.responses["200"]).toBeDefined();
    expect(op.responses["429"].headers["Retry-After"]).toBeDefined();
  });

  it.each([
    ["getCustomer", ["CUSTOMER_NOT_FOUND"]],
    ["redeemReward", ["CUSTOMER_NOT_FOUND", "REWARD_NOT_FOUND", "INSUFFICIENT_STAMPS"]],
    ["voidRewardCode", ["REWARD_CODE_NOT_FOUND", "VOID_FAILED"]],
    ["processEarnRule", ["EARN_RULE_NOT_FOUND", "ACTIVITY_NOT_AWARDED"]],
    ["getTier", ["TIER_NOT_FOUND"]],
    ["adjustStamps", ["INSUFFICIENT_STAMPS"]],
  ])("%s names its domain errors %j", (id, codes) => {
    const { op } = apiOperations().find((o) => o.op.operationId === id)!;
    // The operation's own statuses: the ranges list every code, as only the Prefer header forces them.
    const own = Object.entries(op.responses as Record<string, { description: string }>).filter(([status]) => /^\d+$/.test(status));
    const described = own.map(([, r]) => r.description).join(" ");
    for (const code of codes) expect(described).toContain(`\`${code}\``);
  });
});
