/** @module Handlers of stamp movements and the activity ledger. */
import { ok, okPage } from "../../http/router.js";
import { pageQuery } from "../../http/params.js";
import type { Mount } from "../../http/mount.js";
import * as routes from "./stamps.routes.js";

function manual(body: { stamps: number; comment?: string | undefined; internal_comment?: string | undefined }) {
  return {
    stamps: body.stamps,
    ...(body.comment !== undefined && { comment: body.comment }),
    ...(body.internal_comment !== undefined && { internalComment: body.internal_comment }),
  };
}

export const stampsRouter = (mount: Mount) =>
  mount()
    .route(routes.awardStamps, (c) => ok(c, c.get("shop").awardStamps(c.req.valid("param").id, manual(c.req.valid("json")))))
    .route(routes.adjustStamps, (c) => ok(c, c.get("shop").adjustStamps(c.req.valid("param").id, manual(c.req.valid("json")))))
    .route(routes.processEarnRule, (c) =>
      ok(c, c.get("shop").processEarnRule(c.req.valid("param").id, c.req.valid("json").earn_rule_id)),
    )
    .route(routes.listActivities, (c) => {
      return okPage(c, c.get("shop").listActivities(c.req.valid("param").id, pageQuery(c.req.valid("query"))));
    })
    .router;
