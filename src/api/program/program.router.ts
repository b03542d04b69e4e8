/** @module Handlers of the program's reference data. */
import { createRouter, ok, okList } from "../../http/router.js";
import * as routes from "./program.routes.js";

export const programRouter = createRouter()
  .openapi(routes.listTiers, (c) => okList(c, c.get("shop").listTiers()))
  .openapi(routes.getTier, (c) => ok(c, c.get("shop").getTier(c.req.valid("param").id)))
  .openapi(routes.listEarnRules, (c) => okList(c, c.get("shop").listEarnRules()))
  .openapi(routes.getEarnRule, (c) => ok(c, c.get("shop").getEarnRule(c.req.valid("param").id)))
  .openapi(routes.getShop, (c) => ok(c, c.get("shop").getShop()))
  .openapi(routes.listBeacons, (c) => okList(c, c.get("shop").listBeacons()));
