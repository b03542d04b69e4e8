/** @module Route contracts of rewards, redemptions, grants and reward codes. */
import { z } from "@hono/zod-openapi";
import { apiRoute } from "../../http/router.js";
import { recordId, stampAmount } from "../../http/integers.js";
import { CodeParams, CustomerParams, IdParams, queryBoolean } from "../../http/params.js";
import { envelope, listEnvelope, RedemptionResultSchema, RewardCodeSchema, RewardSchema } from "../../http/schemas.js";

/** The bounds every reward shares are the schema's; a reward's own are the shop's settings, checked by the engine. */
const variableAmount = (what: string) =>
  stampAmount()
    .optional()
    .openapi({
      description: `${what}. Within these bounds (stamp counts are 32-bit integers, as production types them) and the reward's own bounds, its minimum and maximum amount, which are the shop's settings and not in this document: an amount out of them is a 422 \`VALIDATION_ERROR\` naming \`variable_amount\` and the reward's bounds`,
    });

export const RedeemBody = z
  .object({
    reward_product_id: recordId().openapi({ description: "Reward to redeem (id from the rewards listing)", example: 102 }),
    variable_amount: variableAmount("Stamp amount for variable-value rewards (required for them)"),
  })
  .openapi("RedemptionRequest");

export const redeemReward = apiRoute({
  method: "post",
  path: "/customers/{id}/redemptions",
  operationId: "redeemReward",
  tags: ["Redemptions"],
  summary: "Redeem a reward",
  description: "Deducts the reward's stamp cost (or `variable_amount` for a variable reward) and issues a discount code.",
  request: { params: CustomerParams, body: { required: true, content: { "application/json": { schema: RedeemBody } } } },
  success: { description: "The issued code and resulting balance", schema: envelope(RedemptionResultSchema) },
  errors: ["CUSTOMER_NOT_FOUND", "REWARD_NOT_FOUND", "INSUFFICIENT_STAMPS", "ACTIVITY_NOT_AWARDED"],
});

export const GrantBody = z
  .object({
    reward_product_id: recordId().openapi({ description: "Reward to grant", example: 102 }),
    variable_amount: variableAmount("Value for variable-value rewards (optional for a grant)"),
  })
  .openapi("GrantRequest");

export const grantReward = apiRoute({
  method: "post",
  path: "/customers/{id}/reward-grants",
  operationId: "grantReward",
  tags: ["Redemptions"],
  summary: "Grant a reward",
  description: "Issues a real discount code at no stamp cost; the balance is unchanged.",
  request: { params: CustomerParams, body: { required: true, content: { "application/json": { schema: GrantBody } } } },
  success: { description: "The issued code and unchanged balance", schema: envelope(RedemptionResultSchema) },
  errors: ["CUSTOMER_NOT_FOUND", "REWARD_NOT_FOUND", "ACTIVITY_NOT_AWARDED"],
});

const codeTags = ["Reward codes"];

export const listRewardCodes = apiRoute({
  method: "get",
  path: "/customers/{id}/reward-codes",
  operationId: "listRewardCodes",
  tags: codeTags,
  summary: "List a customer's reward codes",
  description: "All discount codes issued to the customer; `available=1|true` keeps only unused ones.",
  request: {
    params: CustomerParams,
    query: z.object({ available: queryBoolean.optional().openapi({ description: "`1` or `true`: only unused codes" }) }),
  },
  success: { description: "The customer's codes", schema: listEnvelope(RewardCodeSchema) },
  errors: ["CUSTOMER_NOT_FOUND"],
});

export const useRewardCode = apiRoute({
  method: "post",
  path: "/customers/{id}/reward-codes/{codeId}/use",
  operationId: "useRewardCode",
  tags: codeTags,
  summary: "Mark a reward code used",
  description: "Marks the code used and deactivates it on the commerce platform. No stamps are refunded.",
  request: { params: CodeParams },
  success: { description: "The code, now used", schema: envelope(RewardCodeSchema) },
  errors: ["CUSTOMER_NOT_FOUND", "REWARD_CODE_NOT_FOUND"],
});

export const voidRewardCode = apiRoute({
  method: "post",
  path: "/customers/{id}/reward-codes/{codeId}/void",
  operationId: "voidRewardCode",
  tags: codeTags,
  summary: "Void a reward code",
  description: "Refunds the stamps spent on the code and deactivates it. A used or already voided code gives VOID_FAILED.",
  request: { params: CodeParams },
  success: { description: "The voided code", schema: envelope(RewardCodeSchema) },
  errors: ["CUSTOMER_NOT_FOUND", "REWARD_CODE_NOT_FOUND", "VOID_FAILED", "ACTIVITY_NOT_AWARDED"],
});

const catalogTags = ["Rewards"];

export const listRewards = apiRoute({
  method: "get",
  path: "/rewards",
  operationId: "listRewards",
  tags: catalogTags,
  summary: "List rewards",
  description: "Reward products customers can redeem online. POS-only and VIP-tier-locked rewards are left out.",
  success: { description: "The reward products", schema: listEnvelope(RewardSchema) },
});

export const getReward = apiRoute({
  method: "get",
  path: "/rewards/{id}",
  operationId: "getReward",
  tags: catalogTags,
  summary: "Get a reward",
  description: "One reward product, including POS-only and tier-locked ones.",
  request: { params: IdParams },
  success: { description: "The reward product", schema: envelope(RewardSchema) },
  errors: ["REWARD_NOT_FOUND"],
});
