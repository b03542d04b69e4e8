/**
 * Request pieces several operations share: the ids in their paths, cursor pagination, notes.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { encodeCursor, type PageQuery } from "../engine/pagination.js";
import { integerText } from "../http/integers.js";
import { pathParams, queryBoolean } from "../http/params.js";
import { body, cursor, query } from "./twin.js";

/**
 * What the document can say of a cursor: base64 of `id:` and 1 to 20 digits (RECORD_ID) starts
 * with the base64 of `id:` and has whole groups of four. Whether it names a record of the list,
 * and the digits inside, are the engine's to check.
 */
const cursorQuery = (description: string) =>
  z
    .string()
    .optional()
    .openapi({
      description,
      pattern: `^${encodeCursor("")}(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$`,
      minLength: encodeCursor("0").length,
      maxLength: encodeCursor("0".repeat(20)).length,
    });

/** A page's size when the request names none. */
export const DEFAULT_PAGE_SIZE = 20;

export const PageQuerySchema = z.object({
  limit: integerText(1, 1000).default(DEFAULT_PAGE_SIZE).openapi({ default: DEFAULT_PAGE_SIZE, description: "Page size" }),
  after: cursorQuery("Cursor of the next page (`nextCursor`); not with `before`: a query with both is a 422 naming `before`").openapi({ example: "aWQ6MTAx" }),
  before: cursorQuery("Cursor of the previous page (`previousCursor`); not with `after`: a query with both is a 422 naming `before`"),
  hasCount: queryBoolean.optional().openapi({ description: "Include the total in `meta.pagination.count`" }),
});

/** The page query as the engine takes it. */
export function pageQuery(q: z.output<typeof PageQuerySchema>): PageQuery {
  return {
    limit: q.limit,
    ...(q.after !== undefined && { after: q.after }),
    ...(q.before !== undefined && { before: q.before }),
    hasCount: q.hasCount ?? false,
  };
}

const customerId = { example: "6677889900", description: "Commerce-platform customer id" };

export const CustomerParams = pathParams({ id: customerId });

export const CodeParams = pathParams({ id: customerId, codeId: { example: "100001", description: "Reward code id" } });

export const IdParams = pathParams({ id: { example: "101" } });

/** Text fields sent by apps: bounded so a runaway client gets a clear 422. */
export const comment = (description: string) => z.string().max(1000).optional().openapi({ description });

/** A change's two notes as the engine takes them: `comment` and `internal_comment`, when sent. */
export function notes(body: { comment?: string | undefined; internal_comment?: string | undefined }) {
  return {
    ...(body.comment !== undefined && { comment: body.comment }),
    ...(body.internal_comment !== undefined && { internalComment: body.internal_comment }),
  };
}

/**
 * The GraphQL arguments of a page, as REST's page query takes them (`counted`: what `hasCount`
 * counts; `before`: whether production documents that argument for the field).
 */
export const pageArgs = (counted: string, { before = true } = {}) => ({
  limit: query("limit", "Int", "Page size, 1 to 1000. Absent or null means 20."),
  after: cursor("after", "Return the page after this cursor (a nextCursor of this query)."),
  ...(before && { before: cursor("before", "Return the page before this cursor (a previousCursor of this query).") }),
  hasCount: query("hasCount", "Boolean", `When true, pageInfo.count holds the total number of ${counted}.`),
});

/** The GraphQL arguments of a change's two notes. */
export const notesArgs = { comment: body("comment", "String"), internalComment: body("internal_comment", "String") };
