/**
 * The envelopes every REST answer comes in (success, list, page, error), defined once: the OpenAPI
 * document and the response checks both come from here. The resources inside them are the
 * contract's (src/contract/shapes.ts).
 * @module
 */
import { z } from "@hono/zod-openapi";

/** An instant as REST writes it. */
export const timestamp = z.string().openapi({ example: "2026-06-05T12:00:00+00:00", description: "ISO 8601 with offset" });

export const ErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      message: z.string().openapi({ example: "Customer not found" }),
      code: z.string().openapi({ example: "CUSTOMER_NOT_FOUND" }),
      statusCode: z.int().openapi({ example: 404 }),
      details: z
        .array(
          z.object({
            in: z.enum(["body", "query", "path", "header"]),
            path: z.string().openapi({ example: "stamps" }),
            message: z.string().openapi({ example: "must be >= 1" }),
          }),
        )
        .optional()
        .openapi({ description: "Only on VALIDATION_ERROR: each offending field and why" }),
    }),
    timestamp,
  })
  .openapi("ErrorEnvelope");

export const PaginationSchema = z
  .object({
    hasNext: z.boolean(),
    hasPrevious: z.boolean(),
    nextCursor: z.string().nullable(),
    previousCursor: z.string().nullable(),
    count: z.int().nullable().openapi({ description: "Only with hasCount=true, else null" }),
  })
  .openapi("Pagination");

/** `{ success, data, timestamp }` around a resource. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, timestamp });
}

/** A cursor-paginated list. */
export function pagedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    success: z.literal(true),
    data: z.array(item),
    meta: z.object({ pagination: PaginationSchema }),
    timestamp,
  });
}

/** A small reference list, returned whole with its count. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), meta: z.object({ count: z.int() }), timestamp });
}
