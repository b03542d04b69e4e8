/**
 * An answer's body as verify keeps it for the checks: JSON parsed, or the text when it is not
 * JSON; bounded before it is parsed (how deep it nests, how many values it holds) so no check's
 * walk can overflow the stack or take the run's memory; and with every credential taken out, so
 * no check, report or message can echo one whatever the target sent back.
 * @module
 */
import { jsonTextTooDeep, jsonTextValues, MAX_JSON_DEPTH } from "../http/json-depth.js";
import { withoutSecrets } from "./scrub.js";

/** The most JSON values (objects, arrays and scalars) one answer may hold: a page of 1,000 customers holds about 20,000. */
export const MAX_ANSWER_VALUES = 100_000;
/** The most a run reads of all its answers together: a run reads about 200 KB. */
export const MAX_RUN_ANSWER_BYTES = 32 * 1024 * 1024;

const BEYOND = "more than loyalty-sim reads of one answer (docs/limits.md)";

/** The body, parsed; a phrase saying why not when it is beyond the bounds. */
export function parseAnswer(text: string, secrets: readonly string[]): { body: unknown } | { problem: string } {
  if (jsonTextTooDeep(text)) return { problem: `the answer is JSON nested deeper than ${MAX_JSON_DEPTH} levels, ${BEYOND}` };
  if (jsonTextValues(text, MAX_ANSWER_VALUES) > MAX_ANSWER_VALUES) return { problem: `the answer holds more than ${MAX_ANSWER_VALUES} JSON values, ${BEYOND}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { body: withoutSecrets(body, secrets) };
}
