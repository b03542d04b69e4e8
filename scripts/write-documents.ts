/**
 * Regenerates every committed document from the code (`npm run documents`): the OpenAPI document,
 * the scenario JSON Schema, the GraphQL schema and the README's table of operations. All come from
 * the contract (the OpenAPI document names GraphQL's root fields too), so they are written
 * together. Tests fail when a committed copy drifts.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { printedSchema } from "../src/graphql/schema.js";
import { serializeOpenApiDocument, serializeScenarioSchema } from "../src/simulator/openapi-document.js";
import { withOperationsTable } from "./lib/operations-table.js";

for (const [file, text] of [
  ["../openapi/openapi.json", serializeOpenApiDocument()],
  ["../scenarios/scenario.schema.json", serializeScenarioSchema()],
  ["../graphql/schema.graphql", printedSchema()],
  ["../README.md", withOperationsTable(readFileSync(new URL("../README.md", import.meta.url), "utf8"))],
] as const) {
  const target = new URL(file, import.meta.url);
  mkdirSync(new URL(".", target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${target.pathname}`);
}
