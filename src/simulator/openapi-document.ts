/**
 * The OpenAPI document as committed in openapi/openapi.json: generated from the routes of an app
 * built with an empty default shop, with the default server address.
 * @module
 */
import { parseConfig } from "../config.js";
import { openApiConfig } from "../app/openapi.js";
import { buildSimulator } from "./simulator.js";
import { scenarioJsonSchema } from "../scenarios/schema.js";

export function buildOpenApiDocument() {
  const { app } = buildSimulator(parseConfig({ customers: 0 }));
  return app.getOpenAPI31Document(openApiConfig());
}

/** The document as written to disk: stable key order, two-space indent, final newline. */
export function serializeOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

/** The scenario JSON Schema as written to scenarios/scenario.schema.json. */
export function serializeScenarioSchema(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}
