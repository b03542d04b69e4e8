/**
 * Request pieces shared by routes: plain path parameters and boolean flags in a query.
 * @module
 */
import { z } from "@hono/zod-openapi";

/** Query booleans as production takes them: `1`/`true` or `0`/`false`. */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

/** Schemas made by `pathParams`: strings without checks, which no path segment can fail. */
const plainPathParams = new WeakSet<object>();

/**
 * Path parameters that are plain strings, documented as given. The mount hands them to the handler
 * as the router decoded them, without a zod parse.
 */
export function pathParams<K extends string>(params: Record<K, { example?: string; description?: string }>) {
  const shape = {} as Record<K, z.ZodString>;
  for (const name of Object.keys(params) as K[]) shape[name] = z.string().openapi({ param: { name, in: "path" }, ...params[name] });
  const schema = z.object(shape);
  plainPathParams.add(schema);
  return schema;
}

/** Whether `schema` was made by `pathParams`. */
export function isPlainPathParams(schema: object): boolean {
  return plainPathParams.has(schema);
}
