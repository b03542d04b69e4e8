/** @module Handlers of rewards, redemptions, grants and reward codes. */
import { ok, okList } from "../../http/router.js";
import type { Mount } from "../../http/mount.js";
import * as routes from "./rewards.routes.js";

export const rewardsRouter = (mount: Mount) =>
  mount()
    .route(routes.redeemReward, (c) => {
      const body = c.req.valid("json");
      return ok(c, c.get("shop").redeemReward(c.req.valid("param").id, body.reward_product_id, body.variable_amount));
    })
    .route(routes.grantReward, (c) => {
      const body = c.req.valid("json");
      return ok(c, c.get("shop").grantReward(c.req.valid("param").id, body.reward_product_id, body.variable_amount));
    })
    .route(routes.listRewardCodes, (c) => {
      return okList(c, c.get("shop").listRewardCodes(c.req.valid("param").id, c.req.valid("query").available ?? false));
    })
    .route(routes.useRewardCode, (c) => {
      const { id, codeId } = c.req.valid("param");
      return ok(c, c.get("shop").useRewardCode(id, codeId));
    })
    .route(routes.voidRewardCode, (c) => {
      const { id, codeId } = c.req.valid("param");
      return ok(c, c.get("shop").voidRewardCode(id, codeId));
    })
    .route(routes.listRewards, (c) => okList(c, c.get("shop").listRewards()))
    .route(routes.getReward, (c) => ok(c, c.get("shop").getReward(c.req.valid("param").id)))
    .router;
