/** @module The reward operations: redemptions, grants, a customer's reward codes, and the rewards listed. */
import { z } from "@hono/zod-openapi";
import { MAX_CUSTOMER_CODES } from "../engine/limits.js";
import { recordId as recordIdNumber, stampAmount } from "../http/integers.js";
import { queryBoolean } from "../http/params.js";
import { CodeParams, CustomerParams, IdParams } from "./inputs.js";
import { operation, resource } from "./operation.js";
import { RedemptionResultSchema, RewardCodeSchema, RewardSchema } from "./shapes.js";
import { body, pathId, query, recordId } from "./twin.js";

/** The bounds every reward shares are the schema's; a reward's own are the shop's settings, checked by the engine. */
const variableAmount = (what: string) =>
  stampAmount()
    .optional()
    .openapi({
      description: `${what}. Within these bounds (stamp counts are 32-bit integers, as production types them) and the reward's own bounds, its minimum and maximum amount, which are the shop's settings and not in this document: an amount out of them is a 422 \`VALIDATION_ERROR\` naming \`variable_amount\` and the reward's bounds`,
    });

export const RedeemBody = z
  .object({
    reward_product_id: recordIdNumber().openapi({ description: "Reward to redeem (id from the rewards listing)", example: 102 }),
    variable_amount: variableAmount("Stamp amount for variable-value rewards (required for them)"),
  })
  .openapi("RedemptionRequest");

export const GrantBody = z
  .object({
    reward_product_id: recordIdNumber().openapi({ description: "Reward to grant", example: 102 }),
    variable_amount: variableAmount("Value for variable-value rewards (optional for a grant)"),
  })
  .openapi("GrantRequest");

const rewardArgs = { customerId: pathId("id"), rewardProductId: recordId("reward_product_id"), variableAmount: body("variable_amount", "Int") };
const codeArgs = { customerId: pathId("id"), rewardCodeId: pathId("codeId") };
const codeTags = ["Reward codes"];
const catalogTags = ["Rewards"];

export const rewards = resource({
  redeemReward: operation({
    method: "post",
    path: "/customers/{id}/redemptions",
    tags: ["Redemptions"],
    summary: "Redeem a reward",
    description: "Deducts the reward's stamp cost (or `variable_amount` for a variable reward) and issues a discount code.",
    params: CustomerParams,
    body: RedeemBody,
    answer: { kind: "one", description: "The issued code and resulting balance", schema: RedemptionResultSchema },
    errors: ["CUSTOMER_NOT_FOUND", "REWARD_NOT_FOUND", "INSUFFICIENT_STAMPS", "ACTIVITY_NOT_AWARDED"],
    run: (shop, { params, body }) => shop.redeemReward(params.id, body.reward_product_id, body.variable_amount),
    graphql: {
      field: "redeemReward",
      description: "Spends the reward's price (or variableAmount for a variable reward) and issues a discount code.",
      args: rewardArgs,
      returns: "Redemption!",
    },
  }),
  grantReward: operation({
    method: "post",
    path: "/customers/{id}/reward-grants",
    tags: ["Redemptions"],
    summary: "Grant a reward",
    description: "Issues a real discount code at no stamp cost; the balance is unchanged.",
    params: CustomerParams,
    body: GrantBody,
    answer: { kind: "one", description: "The issued code and unchanged balance", schema: RedemptionResultSchema },
    errors: ["CUSTOMER_NOT_FOUND", "REWARD_NOT_FOUND", "ACTIVITY_NOT_AWARDED"],
    run: (shop, { params, body }) => shop.grantReward(params.id, body.reward_product_id, body.variable_amount),
    graphql: { field: "grantReward", description: "Issues a reward's discount code at no stamp cost.", args: rewardArgs, returns: "Redemption!" },
  }),
  listRewardCodes: operation({
    method: "get",
    path: "/customers/{id}/reward-codes",
    tags: codeTags,
    summary: "List a customer's reward codes",
    description: "All discount codes issued to the customer; `available=1|true` keeps only unused ones.",
    params: CustomerParams,
    query: z.object({ available: queryBoolean.optional().openapi({ description: "`1` or `true`: only unused codes" }) }),
    answer: { kind: "list", description: "The customer's codes", schema: RewardCodeSchema },
    errors: ["CUSTOMER_NOT_FOUND"],
    run: (shop, { params, query }) => shop.listRewardCodes(params.id, query.available ?? false),
    graphql: {
      field: "rewardCodes",
      description: "The discount codes issued to one customer.",
      args: { customerId: pathId("id"), available: query("available", "Boolean", "When true, only codes that can still be used.") },
      returns: "[RewardCode!]!",
      maxItems: MAX_CUSTOMER_CODES,
    },
  }),
  useRewardCode: operation({
    method: "post",
    path: "/customers/{id}/reward-codes/{codeId}/use",
    tags: codeTags,
    summary: "Mark a reward code used",
    description: "Marks the code used and deactivates it on the commerce platform. No stamps are refunded.",
    params: CodeParams,
    answer: { kind: "one", description: "The code, now used", schema: RewardCodeSchema },
    errors: ["CUSTOMER_NOT_FOUND", "REWARD_CODE_NOT_FOUND"],
    run: (shop, { params }) => shop.useRewardCode(params.id, params.codeId),
    graphql: { field: "markRewardCodeUsed", description: "Marks a code used (deactivated on the platform); no refund.", args: codeArgs, returns: "RewardCode!" },
  }),
  voidRewardCode: operation({
    method: "post",
    path: "/customers/{id}/reward-codes/{codeId}/void",
    tags: codeTags,
    summary: "Void a reward code",
    description: "Refunds the stamps spent on the code and deactivates it. A used or already voided code gives VOID_FAILED.",
    params: CodeParams,
    answer: { kind: "one", description: "The voided code", schema: RewardCodeSchema },
    errors: ["CUSTOMER_NOT_FOUND", "REWARD_CODE_NOT_FOUND", "VOID_FAILED", "ACTIVITY_NOT_AWARDED"],
    run: (shop, { params }) => shop.voidRewardCode(params.id, params.codeId),
    graphql: { field: "voidRewardCode", description: "Refunds what a code cost and deactivates it.", args: codeArgs, returns: "RewardCode!" },
  }),
  listRewards: operation({
    method: "get",
    path: "/rewards",
    tags: catalogTags,
    summary: "List rewards",
    description: "Reward products customers can redeem online. POS-only and VIP-tier-locked rewards are left out.",
    answer: { kind: "list", description: "The reward products", schema: RewardSchema },
    run: (shop) => shop.listRewards(),
    graphql: { field: "rewards", description: "The rewards customers can redeem.", args: {}, returns: "[Reward!]!" },
  }),
  getReward: operation({
    method: "get",
    path: "/rewards/{id}",
    tags: catalogTags,
    summary: "Get a reward",
    description: "One reward product, including POS-only and tier-locked ones.",
    params: IdParams,
    answer: { kind: "one", description: "The reward product", schema: RewardSchema },
    errors: ["REWARD_NOT_FOUND"],
    run: (shop, { params }) => shop.getReward(params.id),
    graphql: { field: "reward", description: "One reward by id; null (with a REWARD_NOT_FOUND error) when unknown.", args: { id: pathId("id") }, returns: "Reward" },
  }),
});
