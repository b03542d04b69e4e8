/** @module Handlers of the customer endpoints: thin, typed by their routes. */
import { ok, okPage } from "../../http/router.js";
import { pageQuery } from "../../http/params.js";
import type { Mount } from "../../http/mount.js";
import * as routes from "./customers.routes.js";

export const customersRouter = (mount: Mount) =>
  mount()
    .route(routes.listCustomers, (c) => {
      const query = c.req.valid("query");
      return okPage(c, c.get("shop").listCustomers(query.email !== undefined ? { email: query.email } : {}, pageQuery(query)));
    })
    .route(routes.getCustomer, (c) => ok(c, c.get("shop").getCustomer(c.req.valid("param").id)))
    .route(routes.updateCustomer, (c) => {
      const body = c.req.valid("json");
      const patch = {
        ...(body.birthday_month !== undefined && body.birthday_day !== undefined && {
          birthday: { month: body.birthday_month, day: body.birthday_day },
        }),
        ...(body.excluded !== undefined && { excluded: body.excluded }),
      };
      return ok(c, c.get("shop").updateCustomer(c.req.valid("param").id, patch));
    })
    .route(routes.setCustomerTier, (c) => {
      const body = c.req.valid("json");
      const customer = c.get("shop").setCustomerTier(c.req.valid("param").id, {
        tierId: body.tier_id,
        triggerRewards: body.trigger_rewards ?? false,
        ...(body.comment !== undefined && { comment: body.comment }),
        ...(body.internal_comment !== undefined && { internalComment: body.internal_comment }),
      });
      return ok(c, customer);
    })
    .router;
