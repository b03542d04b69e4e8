/**
 * GitHub's own parser of workflow and action files (@actions/workflow-parser, which the Actions
 * editor extension runs), checking a file against its schema: every error, with line and column.
 * Its modules import its JSON schemas without `with { type: "json" }`, which Node refuses; a load
 * hook registered first adds the attribute to those imports (and only those).
 * @module
 */
import { register } from "node:module";

const HOOKS = `export async function load(url, context, next) {
  if (url.endsWith(".json") && url.includes("/@actions/workflow-parser/") && !context.importAttributes?.type) {
    return next(url, { ...context, importAttributes: { ...context.importAttributes, type: "json" } });
  }
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);

const { NoOperationTraceWriter, parseWorkflow } = await import("@actions/workflow-parser");
const { parseAction } = await import("@actions/workflow-parser/actions/action-parser");

/** The schema's complaints about a workflow file's text (none: valid). */
export function workflowErrors(name: string, content: string): string[] {
  return parseWorkflow({ name, content }, new NoOperationTraceWriter()).context.errors.getErrors().map((e) => e.message);
}

/** The schema's complaints about an action.yml's text (none: valid). */
export function actionErrors(name: string, content: string): string[] {
  return parseAction({ name, content }, new NoOperationTraceWriter()).context.errors.getErrors().map((e) => e.message);
}
