/**
 * The contract's answer schemas read the way verify needs them: a record's field problems
 * (missing, wrong type, null where nulls are left out, a field the contract does not have), its
 * instants, and the GraphQL selection of the same fields.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { timestamp } from "../http/schemas.js";
import { keyText } from "./read.js";

const strictCache = new WeakMap<z.ZodType, z.ZodType>();

/** The schema with every object strict, at every depth: a field the contract lacks is a problem. */
function strict(schema: z.ZodType): z.ZodType {
  const kept = strictCache.get(schema);
  if (kept) return kept;
  let made: z.ZodType = schema;
  if (schema instanceof z.ZodObject) made = z.strictObject(Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => [key, strict(field)])));
  else if (schema instanceof z.ZodArray) made = z.array(strict(schema.element as z.ZodType));
  else if (schema instanceof z.ZodOptional) made = strict(schema.unwrap() as z.ZodType).optional();
  strictCache.set(schema, made);
  return made;
}

const pathText = (at: string, path: readonly PropertyKey[]) =>
  path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : `${text}${text === "" ? "" : "."}${keyText(String(key))}`), at);

/** Keys a target added, as a message names them: a few, each shortened (a target may send thousands, or long ones). */
function keyList(keys: readonly string[]): string {
  const named = keys.slice(0, 5).map((k) => `\`${keyText(k)}\``);
  return `${named.join(", ")}${keys.length > 5 ? ` and ${keys.length - 5} more` : ""}`;
}

/** What is wrong with `value` as the schema's record (`at` names where it is, e.g. `data[0]`); none when it fits. */
export function fieldProblems(schema: z.ZodType, value: unknown, at: string): string[] {
  const result = strict(schema).safeParse(value, { reportInput: true });
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const where = pathText(at, issue.path) || "(the record)";
    if (issue.code === "unrecognized_keys") return `${where}: ${keyList(issue.keys)} not in the contract`;
    if (issue.code === "invalid_type" && issue.input === undefined) return `${where}: missing (expected ${issue.expected})`;
    if (issue.code === "invalid_type" && issue.input === null) return `${where}: null (REST leaves null fields out)`;
    return `${where}: ${issue.message}`;
  });
}

/** Each instant of a record, by where it is: the fields the contract types as a timestamp. */
export function instants(schema: z.ZodType, value: unknown, at: string): [string, unknown][] {
  if (schema instanceof z.ZodOptional) return value === undefined ? [] : instants(schema.unwrap() as z.ZodType, value, at);
  if (schema === timestamp) return [[at, value]];
  if (schema instanceof z.ZodArray && Array.isArray(value)) return value.flatMap((item, i) => instants(schema.element as z.ZodType, item, `${at}[${i}]`));
  if (schema instanceof z.ZodObject && typeof value === "object" && value !== null) {
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, field]) => instants(field, (value as Record<string, unknown>)[key], at === "" ? key : `${at}.${key}`));
  }
  return [];
}

/** Whether a field of the schema is an instant (optional or not). */
export function isInstant(schema: z.ZodType): boolean {
  return schema === timestamp || (schema instanceof z.ZodOptional && isInstant(schema.unwrap() as z.ZodType));
}

/** The fields of an object schema, optional ones unwrapped. */
export function fieldsOf(schema: z.ZodType): [string, z.ZodType][] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>);
}

/** The inner schema of an optional field or of an array's items. */
export function inner(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional) return inner(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return inner(schema.element as z.ZodType);
  return schema;
}

/** The GraphQL selection of every field of the record, nested records included: `{ id name rewards { id } }`. */
export function selection(schema: z.ZodType): string {
  return `{ ${fieldsOf(schema)
    .map(([key, field]) => (inner(field) instanceof z.ZodObject ? `${key} ${selection(inner(field))}` : key))
    .join(" ")} }`;
}

/** ISO 8601 with an explicit offset, as production writes every instant (never `Z`). */
export const OFFSET_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?[+-]\d{2}:\d{2}$/;
