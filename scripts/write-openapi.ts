/**
 * Regenerates the committed documents from the code (`npm run openapi`): the OpenAPI document and
 * the scenario JSON Schema. Tests fail when the committed copies drift.
 */
import { writeFileSync } from "node:fs";
import { serializeOpenApiDocument, serializeScenarioSchema } from "../src/simulator/openapi-document.js";

for (const [file, text] of [
  ["../openapi/openapi.json", serializeOpenApiDocument()],
  ["../scenarios/scenario.schema.json", serializeScenarioSchema()],
] as const) {
  const target = new URL(file, import.meta.url);
  writeFileSync(target, text);
  console.log(`wrote ${target.pathname}`);
}
