/** @module The API's base path, as production's; in a module of its own so that low-level modules can name it. */
export const API_BASE = "/rest_api/v1";

/** `path` without the API base in front (`/rest_api/v1/customers` -> `/customers`); any other path as it is. */
export function belowApiBase(path: string): string {
  return path.startsWith(`${API_BASE}/`) ? path.slice(API_BASE.length) : path;
}
