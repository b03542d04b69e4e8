/**
 * The request path hono routes by: a path without `%` or `#`, the usual one, found with native
 * string searches (hono's `getPath` walks the URL a character at a time); any other is hono's.
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
