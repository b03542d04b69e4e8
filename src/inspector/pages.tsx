/**
 * The inspector's pages, imported on the first `/__sim/ui` request. Each page is server-rendered
 * hono/jsx (escaped), reading and changing the simulator through the control API.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "../http/env.js";
import { sendNoRoute } from "../http/errors.js";
import type { Exchange } from "../http/exchange.js";
import { Page } from "./context.js";
import type { InspectorDeps } from "./paths.js";
import { customerPage, customersPage } from "./customers.js";
import { addScenario, deleteScenario, loadShipped, scenariosPage, scenariosPanel } from "./scenarios.js";
import { changeClock, clockPage, clockPanel } from "./clock.js";
import { createShop, resetShops, shopsPage } from "./shops.js";
import { coveragePage } from "./coverage.js";
import { requestDetail } from "./entry.js";
import { errorsPage } from "./errors.js";
import { requestsPage, rowsFragment } from "./requests.js";

type Handler = (page: Page, id: string | undefined, part: string | undefined) => Promise<Response> | Response | undefined;

const GET: Record<string, Handler> = {
  "": (page, id) => (id === undefined ? requestsPage(page) : undefined),
  requests: (page, id, part) => (part !== undefined ? undefined : id === undefined ? requestsPage(page) : id === "rows" ? rowsFragment(page) : requestDetail(page, id)),
  errors: (page, id) => (id === undefined ? errorsPage(page) : undefined),
  scenarios: (page, id) => (id === undefined ? scenariosPage(page) : id === "panel" ? scenariosPanel(page) : undefined),
  clock: (page, id) => (id === undefined ? clockPage(page) : id === "panel" ? clockPanel(page) : undefined),
  shops: (page, id) => (id === undefined ? shopsPage(page) : undefined),
  coverage: (page, id) => (id === undefined ? coveragePage(page) : undefined),
  customers: (page, id, part) => (part !== undefined ? undefined : id === undefined ? customersPage(page) : customerPage(page, id)),
};

const POST: Record<string, Handler> = {
  clock: (page, id) => (id === undefined ? changeClock(page) : undefined),
  shops: (page, id, part) => (id === undefined ? createShop(page) : id === "reset" && part === undefined ? resetShops(page, undefined) : part === "reset" ? resetShops(page, id) : undefined),
  scenarios: (page, id, part) => (id === undefined ? addScenario(page) : id === "load" && part === undefined ? loadShipped(page) : part === "delete" ? deleteScenario(page, id) : undefined),
};

export function createPages(deps: InspectorDeps) {
  return async (c: Context<AppEnv>, exchange: Exchange): Promise<Response> => {
    const { page: name = "", id, part } = c.req.param() as { page?: string; id?: string; part?: string };
    const table = c.req.method === "POST" ? POST : GET;
    const handler = Object.hasOwn(table, name) ? table[name] : undefined;
    const res = handler ? await handler(new Page(exchange, deps), id, part) : undefined;
    return res ?? sendNoRoute(exchange);
  };
}
