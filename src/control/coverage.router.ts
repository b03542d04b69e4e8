/**
 * Handlers of `GET` and `DELETE /__sim/coverage`: the shop as the inspector's reads name it
 * (`?shop=` id or API key, else X-Api-Key, else the default shop), or `?shop=all`.
 * @module
 */
import type { Coverage } from "../coverage/counters.js";
import type { Engine } from "../engine/engine.js";
import type { Exchange } from "../http/exchange.js";
import type { Mount } from "../http/mount.js";
import * as routes from "./coverage.routes.js";
import { inspectedShop } from "./inspect.router.js";

export interface CoverageDeps {
  engine: Engine;
  coverage: Coverage;
}

/** The shops a call names, and the report's name for them. */
function namedShops(exchange: Exchange, engine: Engine): { name: string; ids: string[] } {
  if (exchange.c.req.query("shop") === "all") return { name: "all", ids: engine.shops().map((s) => s.id) };
  const { shop } = inspectedShop(exchange, engine);
  return { name: shop.id, ids: [shop.id] };
}

export function coverageRouter(mount: Mount, deps: CoverageDeps) {
  const { engine, coverage } = deps;
  return mount()
    .route(routes.simGetCoverage, (c, exchange) => {
      const { name, ids } = namedShops(exchange, engine);
      return c.json(coverage.report(name, ids), 200);
    })
    .route(routes.simClearCoverage, (c, exchange) => {
      const { name, ids } = namedShops(exchange, engine);
      if (name === "all") coverage.clear();
      else for (const id of ids) coverage.clear(id);
      return c.body(null, 204);
    }).router;
}
