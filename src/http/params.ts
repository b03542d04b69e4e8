/**
 * Request pieces shared by several routes: path parameters, cursor pagination and boolean flags.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { encodeCursor } from "../engine/pagination.js";
import { integerText } from "./integers.js";

/** Query booleans as production takes them: `1`/`true` or `0`/`false`. */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

/**
 * What the document can say of a cursor: base64 of `id:` and 1 to 20 digits (RECORD_ID) starts
 * with the base64 of `id:` and has whole groups of four. Whether it names a record of the list,
 * and the digits inside, are the engine's to check.
 */
const cursor = (description: string) =>
  z
    .string()
    .optional()
    .openapi({
      description,
      pattern: `^${encodeCursor("")}(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$`,
      minLength: encodeCursor("0").length,
      maxLength: encodeCursor("0".repeat(20)).length,
    });

export const PageQuerySchema = z.object({
  limit: integerText(1, 1000).default(20).openapi({ default: 20, description: "Page size" }),
  after: cursor("Cursor of the next page (`nextCursor`); not with `before`: a query with both is a 422 naming `before`").openapi({ example: "aWQ6MTAx" }),
  before: cursor("Cursor of the previous page (`previousCursor`); not with `after`: a query with both is a 422 naming `before`"),
  hasCount: queryBoolean.optional().openapi({ description: "Include the total in `meta.pagination.count`" }),
});

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

const customerId = { example: "6677889900", description: "Commerce-platform customer id" };

export const CustomerParams = pathParams({ id: customerId });

export const CodeParams = pathParams({ id: customerId, codeId: { example: "100001", description: "Reward code id" } });

export const IdParams = pathParams({ id: { example: "101" } });

/** The page query as the engine takes it. */
export function pageQuery(q: z.infer<typeof PageQuerySchema>) {
  return {
    limit: q.limit,
    ...(q.after !== undefined && { after: q.after }),
    ...(q.before !== undefined && { before: q.before }),
    hasCount: q.hasCount ?? false,
  };
}

/** Text fields sent by apps: bounded so a runaway client gets a clear 422. */
export const comment = (description: string) => z.string().max(1000).optional().openapi({ description });
