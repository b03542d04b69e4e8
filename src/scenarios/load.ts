/**
 * Reading scenarios from JSON or YAML (files, or control-API bodies), with errors that name the
 * source, the rule index and the field.
 * @module
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parse as parseYaml } from "yaml";
import type { ZodError } from "zod";
import type { FieldIssue } from "../engine/errors.js";
import { scenarioSchema, type Scenario } from "./schema.js";

export class ScenarioError extends Error {
  override readonly name = "ScenarioError";

  constructor(
    readonly source: string,
    readonly issues: FieldIssue[],
  ) {
    super(`Scenario ${source} is not valid:\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join("\n")}\nFix it and load it again.`);
  }
}

/** `rules[2].respond.error` style paths. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("") || "(root)";
}

export function scenarioIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ in: "body", path: issuePath(issue.path), message: issue.message }));
}

export function parseScenario(data: unknown, source: string): Scenario {
  const result = scenarioSchema.safeParse(data);
  if (!result.success) throw new ScenarioError(source, scenarioIssues(result.error));
  return result.data;
}

/** Text as YAML (a superset of JSON) or JSON. */
export function parseScenarioText(text: string, format: "json" | "yaml", source: string): Scenario {
  let data: unknown;
  try {
    data = format === "yaml" ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(source, [{ in: "body", path: "(root)", message: `is not valid ${format.toUpperCase()}: ${(error as Error).message}` }]);
  }
  return parseScenario(data, source);
}

export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ScenarioError(path, [{ in: "body", path: "(file)", message: `cannot be read: ${(error as Error).message}` }]);
  }
  const ext = extname(path).toLowerCase();
  return parseScenarioText(text, ext === ".yaml" || ext === ".yml" ? "yaml" : "json", path);
}
