/**
 * Reading scenarios from JSON or YAML (files, or control-API bodies), with errors that name the
 * source, the rule index and the field.
 * @module
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parse as parseYaml, Parser, type CST } from "yaml";
import type { ZodError } from "zod";
import type { FieldProblem } from "../engine/errors.js";
import { jsonTextValues, MAX_JSON_DEPTH, valueShape } from "../http/json-depth.js";
import { zodIssues } from "../zod-issues.js";
import { MAX_SCENARIO_VALUES, textTooLarge, TOO_MANY_VALUES } from "./limits.js";
import { scenarioSchema, type Scenario } from "./schema.js";

export class ScenarioError extends Error {
  override readonly name = "ScenarioError";

  constructor(
    readonly source: string,
    readonly issues: FieldProblem[],
  ) {
    super(`Scenario ${source} is not valid:\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join("\n")}\nFix it and load it again.`);
  }
}

/** Each issue with its field's path, `rules[2].respond.error` style. */
export function scenarioIssues(error: ZodError): FieldProblem[] {
  return zodIssues(error.issues);
}

/**
 * Deepest YAML document read: a scenario's own levels and a body's, with room to spare (a body too
 * deep within it is refused by the schema, which names the field).
 */
const MAX_YAML_DEPTH = 2 * MAX_JSON_DEPTH;

/** The issue of a scenario holding more than MAX_SCENARIO_VALUES JSON values. */
const tooManyValues = (source: string) => new ScenarioError(source, [{ path: "(root)", message: TOO_MANY_VALUES }]);

export function parseScenario(data: unknown, source: string): Scenario {
  // Counted before the schema walks each body. A value too deep to count is left to the schema,
  // which names the body.
  const { values, tooDeep } = valueShape(data, MAX_SCENARIO_VALUES, MAX_YAML_DEPTH);
  if (!tooDeep && values > MAX_SCENARIO_VALUES) throw tooManyValues(source);
  const result = scenarioSchema.safeParse(data);
  if (!result.success) throw new ScenarioError(source, scenarioIssues(result.error));
  return result.data;
}

/**
 * Whether YAML text nests collections deeper than MAX_YAML_DEPTH. The yaml library builds values
 * recursively, and a few thousand levels overflow its stack (or abort the process), so the depth
 * is read first from its syntax tree, which it builds with a stack of its own, walked here with one.
 */
function yamlTooDeep(text: string): boolean {
  const stack: [CST.Token | null | undefined, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (!token) continue;
    if (token.type === "document") stack.push([token.value, depth]);
    else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      if (depth + 1 > MAX_YAML_DEPTH) return true;
      for (const item of token.items) stack.push([item.key, depth + 1], [item.value, depth + 1]);
    }
  }
  return false;
}

/** Text as YAML (a superset of JSON) or JSON. */
export function parseScenarioText(text: string, format: "json" | "yaml", source: string): Scenario {
  if (format === "yaml" && yamlTooDeep(text)) {
    throw new ScenarioError(source, [{ path: "(root)", message: `nests deeper than ${MAX_YAML_DEPTH} levels, the limit for YAML scenarios` }]);
  }
  // Counted on the text, before JSON.parse makes the values.
  if (format === "json" && jsonTextValues(text, MAX_SCENARIO_VALUES) > MAX_SCENARIO_VALUES) throw tooManyValues(source);
  let data: unknown;
  try {
    data = format === "yaml" ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(source, [{ path: "(root)", message: `is not valid ${format.toUpperCase()}: ${(error as Error).message}` }]);
  }
  return parseScenario(data, source);
}

/** A scenario file: the same limits as a scenario added through the control API. */
export function loadScenarioFile(path: string): Scenario {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ScenarioError(path, [{ path: "(file)", message: `cannot be read: ${(error as Error).message}` }]);
  }
  const ext = extname(path).toLowerCase();
  const format = ext === ".yaml" || ext === ".yml" ? "yaml" : "json";
  const tooLarge = textTooLarge(bytes.length, format);
  if (tooLarge !== undefined) throw new ScenarioError(path, [{ path: "(file)", message: tooLarge }]);
  return parseScenarioText(bytes.toString("utf8"), format, path);
}
