/**
 * How large one scenario may be, wherever it comes from (the control API, a file at start), and
 * what one holds in memory: the measure the control API's `--max-scenario-bytes` sums.
 * @module
 */
import { valueShape } from "../http/json-depth.js";

const KIB = 1024;
const MIB = 1024 * KIB;

/** Largest scenario text: a file of many rules, or of large bodies to match, is still a few MiB at most. */
export const SCENARIO_TEXT_LIMIT = 4 * MIB;
/** Largest YAML scenario text: YAML parses far slower than JSON, and parsing blocks every request. */
export const YAML_SCENARIO_LIMIT = 256 * KIB;

/**
 * Most JSON values one scenario holds, its bodies included. Each takes up to about 64 bytes of
 * heap whatever its text's size (`{}` is 2 characters), so the text limit alone let a 4 MiB body
 * hold 1.4 million objects.
 */
export const MAX_SCENARIO_VALUES = 100_000;

/** Heap a JSON value takes at most, as parsed (an empty object: 56 bytes, and its place in its parent). */
export const VALUE_BYTES = 64;

/** The detail message of a scenario, or a body, holding more than MAX_SCENARIO_VALUES. */
export const TOO_MANY_VALUES = `holds more than ${MAX_SCENARIO_VALUES} JSON values (objects, arrays, strings, numbers, booleans and nulls), the limit for one scenario: make its bodies smaller`;

/** The detail message of a scenario text over its format's limit, or undefined when it is within. */
export function textTooLarge(bytes: number, format: "json" | "yaml"): string | undefined {
  if (format === "json" && bytes > SCENARIO_TEXT_LIMIT) return `is ${bytes} bytes, over the ${SCENARIO_TEXT_LIMIT / MIB} MiB limit for a scenario`;
  if (format === "yaml" && bytes > YAML_SCENARIO_LIMIT) {
    return `is ${bytes} bytes, over the ${YAML_SCENARIO_LIMIT / KIB} KiB limit for a YAML scenario (as JSON, a scenario may take ${SCENARIO_TEXT_LIMIT / MIB} MiB)`;
  }
  return undefined;
}

/** What a scenario holds, in bytes: its JSON text, plus VALUE_BYTES for each JSON value. */
export function scenarioBytes(scenario: object): number {
  return Buffer.byteLength(JSON.stringify(scenario)) + VALUE_BYTES * valueShape(scenario, Infinity, Infinity).values;
}
