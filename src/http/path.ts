/**
 * The request path hono routes by. Hono's own `getPath` walks the URL a character at a time
 * looking for escapes (about 1.5% of a `GET /customers/{id}`); a path without `%` or `#`, the
 * usual one, is found here with native string searches, and any other is left to hono.
 * @module
 */
import { getPath } from "hono/utils/url";

export function requestPath(request: Request): string {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf(":") + 4);
  if (start === -1) return getPath(request);
  const query = url.indexOf("?", start);
  const path = query === -1 ? url.slice(start) : url.slice(start, query);
  return path.includes("%") || path.includes("#") ? getPath(request) : path;
}
