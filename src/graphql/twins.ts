/**
 * A root field's arguments checked as its REST twin checks its request (the twin's own zod
 * schemas, so GraphQL refuses what REST refuses, with the same messages), named as the GraphQL
 * document names them; and, when nothing is refused, the twin's checked input, on which the
 * resolver runs the twin's engine call.
 * @module
 */
import { NOT_A_CURSOR, restCursorOf } from "../contract/cursors.js";
import { REST_TWINS, type RestTwin, type RootField } from "../contract/index.js";
import { argumentValue, twinInput } from "../contract/twin-request.js";
import type { FieldProblem } from "../engine/errors.js";
import { fieldIssues, type RequestLocation } from "../http/errors.js";

/** One refused argument, named as the GraphQL document names it. */
export interface ArgumentIssue {
  in: "argument";
  path: string;
  message: string;
}

/** The twin's checked input (`params`, `query`, `body` as its operation's `run` takes them), or what the twin refuses. */
export type CheckedArguments = { input: Record<string, unknown>; issues?: undefined } | { input?: undefined; issues: ArgumentIssue[] };

/**
 * The arguments checked before anything runs: a cursor that is not GraphQL's, and whatever the
 * twin's query and body schemas refuse, except a record id that is not an integer (an `ID` may
 * be any text; the engine then finds nothing, as it does for REST's path ids).
 */
export function checkArguments(field: RootField, args: Readonly<Record<string, unknown>>): CheckedArguments {
  const twin = REST_TWINS[field];
  const sent = twinInput(field, args);
  const input: Record<string, unknown> = { params: sent.params };
  const issues: ArgumentIssue[] = [];
  for (const [argPath, to] of Object.entries(twin.args)) {
    const value = to.cursor ? argumentValue(args, argPath) : undefined;
    if (value !== undefined && restCursorOf(String(value)) === undefined) issues.push({ in: "argument", path: argPath, message: NOT_A_CURSOR });
  }
  if (twin.query) {
    const result = twin.query.safeParse(sent.query);
    if (result.success) input.query = result.data;
    else issues.push(...asArgumentIssues(field, fieldIssues(result.error, "query")));
  }
  if (twin.body) {
    // Record ids are checked as any valid one would be, and reach the engine as sent.
    const ids = Object.values(twin.args).filter((to) => to.recordId && sent.body![to.name] !== undefined);
    const result = twin.body.safeParse({ ...sent.body, ...Object.fromEntries(ids.map((to) => [to.name, 1])) });
    if (result.success) input.body = { ...(result.data as object), ...Object.fromEntries(ids.map((to) => [to.name, sent.body![to.name]])) };
    else issues.push(...asArgumentIssues(field, fieldIssues(result.error, "body")));
  }
  return issues.length > 0 ? { issues } : { input };
}

/**
 * REST's field issues (from the twin's schemas, placed; or from the engine, which names fields only)
 * named as GraphQL names the arguments: `birthday_day` in the body is `input.birthdayDay`, and so in the messages too.
 */
export function asArgumentIssues(field: RootField, details: readonly (FieldProblem & { in?: RequestLocation })[]): ArgumentIssue[] {
  const twin = REST_TWINS[field];
  const out: ArgumentIssue[] = [];
  for (const detail of details) {
    const [head, ...rest] = detail.path.split(".");
    const found = Object.entries(twin.args).find(([, to]) => (detail.in === undefined || to.in === detail.in) && to.name === head);
    if (found?.[1].recordId) continue;
    out.push({ in: "argument", path: found ? [found[0], ...rest].join(".") : detail.path, message: renamed(twin, detail.message) });
  }
  return out;
}

/** A message with the twin's snake_case field names replaced by the GraphQL argument names. */
function renamed(twin: RestTwin, message: string): string {
  let text = message;
  for (const [argPath, to] of Object.entries(twin.args)) {
    if (to.name.includes("_")) text = text.replace(new RegExp(`\\b${to.name}\\b`, "g"), argPath.slice(argPath.lastIndexOf(".") + 1));
  }
  return text;
}
