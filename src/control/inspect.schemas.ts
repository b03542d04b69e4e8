/** @module Schemas of the control API's reads for the inspector: customers, upcoming events, marks. */
import { z } from "@hono/zod-openapi";
import { integerText } from "../http/integers.js";
import { ActivitySchema, CustomerSchema, CustomerSummarySchema, RewardCodeSchema } from "../contract/shapes.js";
import { PaginationSchema } from "../http/schemas.js";

export const ShopQuery = z.object({
  shop: z.string().min(1).max(200).optional().openapi({
    description: "The shop to read: its id or API key (else X-Api-Key; the default shop without either). A query parameter, so that links and EventSource can name it",
  }),
});

export const CustomerSearchQuery = ShopQuery.extend({
  q: z.string().min(1).max(200).optional().openapi({ description: "Text to find, in any case, in the id, email or name" }),
  after: z.string().min(1).max(40).optional().openapi({ description: "Only customers after this one (to page: the previous answer's `nextAfter`)" }),
  limit: integerText(1, 200).default(20).openapi({ default: 20 }),
});

export const CustomerSearchSchema = z
  .object({
    customers: z.array(CustomerSummarySchema),
    nextAfter: z.string().nullable().openapi({ description: "Pass as `after` for the next page; null when this page is the last" }),
  })
  .openapi("SimCustomerSearch");

export const UpcomingEventSchema = z
  .object({
    kind: z.enum(["expiry", "earnRuleReopens", "quotaWindowEnds"]),
    at: z.string().openapi({ description: "ISO 8601, at the shop's clock" }),
    customerId: z.string().optional(),
    stamps: z.int().optional().openapi({ description: "With `expiry`: how many stamps expire" }),
    earnRuleId: z.string().optional(),
    detail: z.string(),
  })
  .openapi("SimUpcomingEvent");

const InspectedCodeSchema = RewardCodeSchema.extend({ cost: z.int().openapi({ description: "Stamps it cost (0 for a granted code)" }) });

export const CustomerDetailQuery = ShopQuery.extend({
  ledgerLimit: integerText(1, 100).default(20).openapi({ default: 20, description: "Ledger entries per page, newest first" }),
  ledgerAfter: z.string().min(1).max(200).optional().openapi({ description: "The ledger page after this cursor (the previous page's `nextCursor`)" }),
});

export const CustomerDetailSchema = z
  .object({
    customer: CustomerSchema,
    codes: z
      .object({ available: z.array(InspectedCodeSchema), used: z.array(InspectedCodeSchema), voided: z.array(InspectedCodeSchema) })
      .openapi({ description: "The customer's codes, newest first, at most 100 per group" }),
    codeCount: z.int(),
    ledger: z.object({ items: z.array(ActivitySchema), pagination: PaginationSchema }),
    upcoming: z.array(UpcomingEventSchema).openapi({ description: "What happens to the customer next by time alone: expiries and earn-rule windows reopening, soonest first" }),
  })
  .openapi("SimCustomerDetail");

export const UpcomingQuery = ShopQuery.extend({
  limit: integerText(1, 200).default(20).openapi({ default: 20 }),
});

export const UpcomingSchema = z
  .object({ now: z.string(), frozen: z.boolean(), events: z.array(UpcomingEventSchema) })
  .openapi("SimUpcoming");

export const MarkSchema = z.object({ name: z.string().min(1).max(200) }).openapi("SimMark");

export type CustomerSearch = z.output<typeof CustomerSearchSchema>;
export type CustomerDetail = z.output<typeof CustomerDetailSchema>;
export type UpcomingEvent = z.output<typeof UpcomingEventSchema>;
export type Upcoming = z.output<typeof UpcomingSchema>;
