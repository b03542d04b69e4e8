/** @module Route contracts of stamp movements and the activity ledger. */
import { z } from "@hono/zod-openapi";
import { apiRoute } from "../../http/router.js";
import { recordId, stampAmount, stampChange } from "../../http/integers.js";
import { comment, CustomerParams, PageQuerySchema } from "../../http/params.js";
import { ActivitySchema, envelope, pagedEnvelope, StampResultSchema } from "../../http/schemas.js";

const tags = ["Stamps"];
const labelNote = "Customer-visible note on the activity; defaults to the shop's branded manual-adjustment label";
const internalNote = 'Staff-only note; defaults to "API adjustment"';

export const AwardBody = z
  .object({
    stamps: stampAmount().openapi({ description: "Stamps to add, at least 1 (stamp counts are 32-bit integers, as production types them)", example: 5 }),
    comment: comment(labelNote),
    internal_comment: comment(internalNote),
  })
  .openapi("AwardStampsRequest");

export const AdjustBody = z
  .object({
    stamps: stampChange().openapi({ description: "Stamps to add, or to deduct when negative; not 0 (stamp counts are 32-bit integers, as production types them)", example: -3 }),
    comment: comment(labelNote),
    internal_comment: comment(internalNote),
  })
  .openapi("AdjustStampsRequest");

const stampErrors = ["CUSTOMER_NOT_FOUND", "ACTIVITY_NOT_AWARDED"] as const;

export const awardStamps = apiRoute({
  method: "post",
  path: "/customers/{id}/stamps/award",
  operationId: "awardStamps",
  tags,
  summary: "Award stamps",
  description: "Adds stamps, writes a loyalty activity and recalculates the VIP tier.",
  request: { params: CustomerParams, body: { required: true, content: { "application/json": { schema: AwardBody } } } },
  success: { description: "The stamp change applied", schema: envelope(StampResultSchema) },
  errors: [...stampErrors],
});

export const adjustStamps = apiRoute({
  method: "post",
  path: "/customers/{id}/stamps/adjust",
  operationId: "adjustStamps",
  tags,
  summary: "Adjust stamps",
  description: "Adds or deducts stamps. A deduction below zero is refused with INSUFFICIENT_STAMPS and changes nothing.",
  request: { params: CustomerParams, body: { required: true, content: { "application/json": { schema: AdjustBody } } } },
  success: { description: "The stamp change applied", schema: envelope(StampResultSchema) },
  errors: [...stampErrors, "INSUFFICIENT_STAMPS"],
});

export const ProcessEarnRuleBody = z
  .object({ earn_rule_id: recordId().openapi({ description: "Rule to process (id from the earn rules list)", example: 203 }) })
  .openapi("ProcessEarnRuleRequest");

export const processEarnRule = apiRoute({
  method: "post",
  path: "/customers/{id}/activities",
  operationId: "processEarnRule",
  tags,
  summary: "Process an earn rule",
  description:
    "Awards round(step x rule multiplier x tier multiplier) stamps for a qualifying action. Refused with ACTIVITY_NOT_AWARDED when the rule's limit is reached or the customer is not eligible.",
  request: {
    params: CustomerParams,
    body: { required: true, content: { "application/json": { schema: ProcessEarnRuleBody } } },
  },
  success: { description: "The stamp change applied", schema: envelope(StampResultSchema) },
  errors: ["CUSTOMER_NOT_FOUND", "EARN_RULE_NOT_FOUND", "ACTIVITY_NOT_AWARDED"],
});

export const listActivities = apiRoute({
  method: "get",
  path: "/customers/{id}/activities",
  operationId: "listActivities",
  tags,
  summary: "List a customer's activities",
  description: "The customer's loyalty ledger, newest first, cursor-paginated.",
  request: { params: CustomerParams, query: PageQuerySchema },
  success: { description: "A page of activities", schema: pagedEnvelope(ActivitySchema) },
  errors: ["CUSTOMER_NOT_FOUND"],
});
