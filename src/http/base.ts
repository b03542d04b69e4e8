/** @module The API's base path, as production's, and which paths are the API's or the control API's. */
export const API_BASE = "/rest_api/v1";

/** `path` without the API base in front (`/rest_api/v1/customers` -> `/customers`); any other path as it is. */
export function belowApiBase(path: string): string {
  return path.startsWith(`${API_BASE}/`) ? path.slice(API_BASE.length) : path;
}

/** Whether `path` is the API's: its base, or below it (`/rest_api/v1x` is not). */
export function isApiPath(path: string): boolean {
  return path.startsWith(API_BASE) && (path.length === API_BASE.length || path[API_BASE.length] === "/");
}

/** The control API's paths (hono routes `/%5F%5Fsim/...` there too: `c.req.path` is decoded). */
export function isControlPath(path: string): boolean {
  return path.startsWith("/__sim/") || path === "/__sim";
}

/** GraphQL's endpoint, beside the REST base (production's). */
export const GRAPHQL_PATH = "/graphql";
