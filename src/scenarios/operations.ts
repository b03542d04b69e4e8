/**
 * Which operation a request is for, resolved from the app's own route definitions (the same ones
 * the OpenAPI document is made of), so scenarios and the journal can name operations.
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { tryDecodeURIComponent } from "hono/utils/url";
import { API_BASE } from "../http/router.js";

type OpenAPIRegistry = OpenAPIHono["openAPIRegistry"];

export interface OperationRef {
  operationId: string;
  template: string;
  params: Record<string, string>;
}

export class OperationTable {
  readonly #routes: { method: string; regex: RegExp; names: string[]; operationId: string; template: string }[] = [];

  constructor(registry: OpenAPIRegistry, prefix: string) {
    for (const def of registry.definitions) {
      if (def.type !== "route" || !def.route.path.startsWith(prefix) || !def.route.operationId) continue;
      const names: string[] = [];
      const source = def.route.path.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_, name: string) => {
        names.push(name);
        return "([^/]+)";
      });
      this.#routes.push({
        method: def.route.method.toUpperCase(),
        regex: new RegExp(`^${source}/?$`),
        names,
        operationId: def.route.operationId,
        template: def.route.path,
      });
    }
  }

  resolve(method: string, path: string): OperationRef | undefined {
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      // Decoded as the router decodes them, so a handler, a scenario rule and the journal see one value.
      route.names.forEach((name, i) => (params[name] = tryDecodeURIComponent(m[i + 1]!)));
      return { operationId: route.operationId, template: route.template, params };
    }
    return undefined;
  }
}

/** The customer a request is about: the `{id}` of a `/customers/{id}...` API operation. */
export function customerIdOf(operation: OperationRef | undefined): string | undefined {
  return operation?.template.startsWith(`${API_BASE}/customers/{id}`) ? operation.params.id : undefined;
}
