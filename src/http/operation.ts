/**
 * Which operation a request is for: known from the route that matched it (see mount.ts), named as
 * the OpenAPI document names it, so scenarios and the journal can name operations (the contract,
 * src/contract, lists them).
 * @module
 */
import type { RouteConfig } from "@hono/zod-openapi";
import { API_BASE } from "./base.js";

/** What the gateway knows of a mounted route. */
export interface MountedRoute {
  /** As the OpenAPI document names the operation (API routes are journaled with it). */
  operationId?: string;
  /** The documented path, e.g. `/rest_api/v1/customers/{id}`. */
  template: string;
  /** Its input's schemas: where a field an error names is sent. */
  request?: RouteConfig["request"];
}

const CUSTOMER_PATH = `${API_BASE}/customers/{id}`;

/** The customer a request (its route, and its path's parameters) is about: the `{id}` of a `/customers/{id}...` API operation. */
export function customerIdOf(request: { readonly route: MountedRoute | undefined; readonly params: Record<string, string> }): string | undefined {
  const { route } = request;
  return route?.operationId !== undefined && route.template.startsWith(CUSTOMER_PATH) ? request.params.id : undefined;
}
