/** @module Route contracts of the program's reference data: shop, tiers, earn rules, beacons. */
import { apiRoute } from "../../http/router.js";
import { IdParams } from "../../http/params.js";
import { BeaconSchema, EarnRuleSchema, envelope, listEnvelope, ShopSchema, TierSchema } from "../../http/schemas.js";

export const listTiers = apiRoute({
  method: "get",
  path: "/tiers",
  operationId: "listTiers",
  tags: ["Tiers"],
  summary: "List VIP tiers",
  description: "The shop's VIP tiers ordered by milestone, each with the rewards it grants.",
  success: { description: "The tiers", schema: listEnvelope(TierSchema) },
});

export const getTier = apiRoute({
  method: "get",
  path: "/tiers/{id}",
  operationId: "getTier",
  tags: ["Tiers"],
  summary: "Get a VIP tier",
  description: "One VIP tier with the rewards it grants.",
  request: { params: IdParams },
  success: { description: "The tier", schema: envelope(TierSchema) },
  errors: ["TIER_NOT_FOUND"],
});

export const listEarnRules = apiRoute({
  method: "get",
  path: "/earn-rules",
  operationId: "listEarnRules",
  tags: ["Earn rules"],
  summary: "List earn rules",
  description: "The ways customers earn stamps.",
  success: { description: "The earn rules", schema: listEnvelope(EarnRuleSchema) },
});

export const getEarnRule = apiRoute({
  method: "get",
  path: "/earn-rules/{id}",
  operationId: "getEarnRule",
  tags: ["Earn rules"],
  summary: "Get an earn rule",
  description: "One earn rule.",
  request: { params: IdParams },
  success: { description: "The earn rule", schema: envelope(EarnRuleSchema) },
  errors: ["EARN_RULE_NOT_FOUND"],
});

export const getShop = apiRoute({
  method: "get",
  path: "/shop",
  operationId: "getShop",
  tags: ["Shop"],
  summary: "Get the shop",
  description: "The shop's loyalty program settings.",
  success: { description: "The shop record", schema: envelope(ShopSchema) },
});

export const listBeacons = apiRoute({
  method: "get",
  path: "/beacons",
  operationId: "listBeacons",
  tags: ["Beacons"],
  summary: "List beacons",
  description: "On-site announcements configured by the shop.",
  success: { description: "The beacons", schema: listEnvelope(BeaconSchema) },
});
