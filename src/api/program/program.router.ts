/** @module Handlers of the program's reference data. */
import { ok, okList } from "../../http/router.js";
import type { Mount } from "../../http/mount.js";
import * as routes from "./program.routes.js";

export const programRouter = (mount: Mount) =>
  mount()
    .route(routes.listTiers, (c) => okList(c, c.get("shop").listTiers()))
    .route(routes.getTier, (c) => ok(c, c.get("shop").getTier(c.req.valid("param").id)))
    .route(routes.listEarnRules, (c) => okList(c, c.get("shop").listEarnRules()))
    .route(routes.getEarnRule, (c) => ok(c, c.get("shop").getEarnRule(c.req.valid("param").id)))
    .route(routes.getShop, (c) => ok(c, c.get("shop").getShop()))
    .route(routes.listBeacons, (c) => okList(c, c.get("shop").listBeacons()))
    .router;
