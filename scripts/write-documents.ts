/**
 * Regenerates every committed document from the code (`npm run documents`): the OpenAPI document,
 * the scenario JSON Schema and the GraphQL schema. All three come from the contract (the OpenAPI
 * document names GraphQL's root fields too), so they are written together. Tests fail when a
 * committed copy drifts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { printedSchema } from "../src/graphql/schema.js";
import { serializeOpenApiDocument, serializeScenarioSchema } from "../src/simulator/openapi-document.js";

for (const [file, text] of [
  ["../openapi/openapi.json", serializeOpenApiDocument()],
  ["../scenarios/scenario.schema.json", serializeScenarioSchema()],
  ["../graphql/schema.graphql", printedSchema()],
] as const) {
  const target = new URL(file, import.meta.url);
  mkdirSync(new URL(".", target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${target.pathname}`);
}
