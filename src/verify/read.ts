/**
 * Typed readers of an answer's JSON, for the checks and the steps' binds: a target may answer
 * anything (null for an object, an object for a list, `[null]`, a number for a string), so nothing
 * is read through a cast. Each reader says what it found, or undefined; none throws on any JSON.
 * @module
 */

export type Rec = Readonly<Record<string, unknown>>;

/** The value when it is a record (an object, not an array nor null). */
export function recordOf(value: unknown): Rec | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Rec) : undefined;
}

/** A record's own field (never one of Object.prototype's), or undefined when `value` is not a record. */
export function field(value: unknown, key: string): unknown {
  const record = recordOf(value);
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A field at the end of a path of keys: `at(body, "meta", "pagination", "count")`. */
export function at(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => field(node, key), value);
}

/** The value when it is a list. */
export function listOf(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** A list's items as records, each item that is not one read as `{}` (its fields all absent); undefined when not a list. */
export function recordsOf(value: unknown): Rec[] | undefined {
  return listOf(value)?.map((item) => recordOf(item) ?? {});
}

/** A field when it is a string. */
export const stringField = (value: unknown, key: string): string | undefined => {
  const found = field(value, key);
  return typeof found === "string" ? found : undefined;
};

/** A field when it is a finite number. */
export const numberField = (value: unknown, key: string): number | undefined => {
  const found = field(value, key);
  return typeof found === "number" && Number.isFinite(found) ? found : undefined;
};

/** What a value is, for a message: "null", "an array", "an object", "a string"... */
export function kindOfValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "absent";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A target's key, as a message names it: shortened (a key may be a megabyte long). */
export const keyText = (key: string) => (key.length > 40 ? `${key.slice(0, 37)}...` : key);

/** The envelope's `data` of an answer's body, or undefined. */
export const dataOfBody = (body: unknown): unknown => field(body, "data");
