/** @module The stamp operations: award, adjust, an earn rule, and the activity ledger. */
import { z } from "@hono/zod-openapi";
import { recordId as recordIdNumber, stampAmount, stampChange } from "../http/integers.js";
import { comment, CustomerParams, notes, notesArgs, pageArgs, pageQuery, PageQuerySchema } from "./inputs.js";
import { operation, resource } from "./operation.js";
import { ActivitySchema, StampResultSchema } from "./shapes.js";
import { body, pathId, recordId } from "./twin.js";

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

export const ProcessEarnRuleBody = z
  .object({ earn_rule_id: recordIdNumber().openapi({ description: "Rule to process (id from the earn rules list)", example: 203 }) })
  .openapi("ProcessEarnRuleRequest");

const stampErrors = ["CUSTOMER_NOT_FOUND", "ACTIVITY_NOT_AWARDED"] as const;
const STAMP_RESULT = { kind: "one", description: "The stamp change applied", schema: StampResultSchema } as const;
const stampArgs = { customerId: pathId("id"), stamps: body("stamps", "Int!"), ...notesArgs };

export const stamps = resource({
  awardStamps: operation({
    method: "post",
    path: "/customers/{id}/stamps/award",
    tags,
    summary: "Award stamps",
    description: "Adds stamps, writes a loyalty activity and recalculates the VIP tier.",
    params: CustomerParams,
    body: AwardBody,
    answer: STAMP_RESULT,
    errors: stampErrors,
    run: (shop, { params, body }) => shop.awardStamps(params.id, { stamps: body.stamps, ...notes(body) }),
    graphql: {
      field: "awardStamps",
      description: "Adds stamps (at least 1) and records an activity. A balance holds at most 2147483647 (an Int): an award beyond is VALIDATION_ERROR and changes nothing.",
      args: stampArgs,
      returns: "StampResult!",
    },
  }),
  adjustStamps: operation({
    method: "post",
    path: "/customers/{id}/stamps/adjust",
    tags,
    summary: "Adjust stamps",
    description: "Adds or deducts stamps. A deduction below zero is refused with INSUFFICIENT_STAMPS and changes nothing.",
    params: CustomerParams,
    body: AdjustBody,
    answer: STAMP_RESULT,
    errors: [...stampErrors, "INSUFFICIENT_STAMPS"],
    run: (shop, { params, body }) => shop.adjustStamps(params.id, { stamps: body.stamps, ...notes(body) }),
    graphql: {
      field: "adjustStamps",
      description: "Adds or deducts stamps (any non-zero amount) and records an activity. A balance holds at most 2147483647 (an Int): a change beyond is VALIDATION_ERROR and changes nothing.",
      args: stampArgs,
      returns: "StampResult!",
    },
  }),
  processEarnRule: operation({
    method: "post",
    path: "/customers/{id}/activities",
    tags,
    summary: "Process an earn rule",
    description:
      "Awards round(step x rule multiplier x tier multiplier) stamps for a qualifying action. Refused with ACTIVITY_NOT_AWARDED when the rule's limit is reached or the customer is not eligible.",
    params: CustomerParams,
    body: ProcessEarnRuleBody,
    answer: STAMP_RESULT,
    errors: ["CUSTOMER_NOT_FOUND", "EARN_RULE_NOT_FOUND", "ACTIVITY_NOT_AWARDED"],
    run: (shop, { params, body }) => shop.processEarnRule(params.id, body.earn_rule_id),
    graphql: {
      field: "processActivity",
      description: "Runs an earn rule for a customer; the rule decides the amount.",
      args: { customerId: pathId("id"), earnRuleId: recordId("earn_rule_id") },
      returns: "StampResult!",
    },
  }),
  listActivities: operation({
    method: "get",
    path: "/customers/{id}/activities",
    tags,
    summary: "List a customer's activities",
    description: "The customer's loyalty ledger, newest first, cursor-paginated.",
    params: CustomerParams,
    query: PageQuerySchema,
    answer: { kind: "page", description: "A page of activities", schema: ActivitySchema },
    errors: ["CUSTOMER_NOT_FOUND"],
    run: (shop, { params, query }) => shop.listActivities(params.id, pageQuery(query)),
    graphql: {
      field: "customerActivities",
      description: "A page of one customer's stamp ledger, newest first.",
      // No `before`: production documents none for this field (spec A6).
      args: { customerId: { ...pathId("id"), description: "The customer's commerce-platform id." }, ...pageArgs("activities", { before: false }) },
      returns: "ActivityConnection!",
    },
  }),
});
