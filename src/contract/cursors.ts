/**
 * GraphQL's cursors: base64 of `{"id":<id>}`, the form production's GraphQL docs show (REST's are
 * base64 of `id:<id>`). Both name the same record, so a GraphQL cursor is turned into REST's
 * before the engine pages, and the engine's cursors back into this form.
 * @module
 */
import { decodeCursor, encodeCursor, RECORD_ID } from "../engine/pagination.js";

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const ID_OBJECT = /^\{"id":(\d+)\}$/;

/** What a refused cursor is told (the argument path is given with it). */
export const NOT_A_CURSOR = `is not a cursor returned by this API (expected base64 of '{"id":<id>}')`;

/** The REST cursor naming the same record as a GraphQL cursor, or undefined when it is none. */
export function restCursorOf(cursor: string): string | undefined {
  if (!BASE64.test(cursor) || cursor.length % 4 !== 0) return undefined;
  const id = ID_OBJECT.exec(Buffer.from(cursor, "base64").toString("utf8"))?.[1];
  return id !== undefined && RECORD_ID.test(id) ? encodeCursor(id) : undefined;
}

/** The GraphQL form of a cursor the engine issued. */
export function graphqlCursorOf(restCursor: string | null): string | null {
  if (restCursor === null) return null;
  return Buffer.from(`{"id":${decodeCursor(restCursor, "after")}}`, "utf8").toString("base64");
}
