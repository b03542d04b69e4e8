/** @module The program's reference data: VIP tiers, earn rules, the shop's settings, beacons. */
import { IdParams } from "./inputs.js";
import { operation, resource } from "./operation.js";
import { BeaconSchema, EarnRuleSchema, ShopSchema, TierSchema } from "./shapes.js";
import { pathId } from "./twin.js";

export const program = resource({
  listTiers: operation({
    method: "get",
    path: "/tiers",
    tags: ["Tiers"],
    summary: "List VIP tiers",
    description: "The shop's VIP tiers ordered by milestone, each with the rewards it grants.",
    answer: { kind: "list", description: "The tiers", schema: TierSchema },
    run: (shop) => shop.listTiers(),
    graphql: { field: "tiers", description: "All VIP tiers of the shop, each with the rewards it grants.", args: {}, returns: "[Tier!]!" },
  }),
  getTier: operation({
    method: "get",
    path: "/tiers/{id}",
    tags: ["Tiers"],
    summary: "Get a VIP tier",
    description: "One VIP tier with the rewards it grants.",
    params: IdParams,
    answer: { kind: "one", description: "The tier", schema: TierSchema },
    errors: ["TIER_NOT_FOUND"],
    run: (shop, { params }) => shop.getTier(params.id),
    graphql: { field: "tier", description: "One VIP tier by id; null (with a TIER_NOT_FOUND error) when unknown.", args: { id: pathId("id") }, returns: "Tier" },
  }),
  listEarnRules: operation({
    method: "get",
    path: "/earn-rules",
    tags: ["Earn rules"],
    summary: "List earn rules",
    description: "The ways customers earn stamps.",
    answer: { kind: "list", description: "The earn rules", schema: EarnRuleSchema },
    run: (shop) => shop.listEarnRules(),
    graphql: { field: "earnRules", description: "All earn rules of the shop.", args: {}, returns: "[EarnRule!]!" },
  }),
  getEarnRule: operation({
    method: "get",
    path: "/earn-rules/{id}",
    tags: ["Earn rules"],
    summary: "Get an earn rule",
    description: "One earn rule.",
    params: IdParams,
    answer: { kind: "one", description: "The earn rule", schema: EarnRuleSchema },
    errors: ["EARN_RULE_NOT_FOUND"],
    run: (shop, { params }) => shop.getEarnRule(params.id),
    graphql: {
      field: "earnRule",
      description: "One earn rule by id; null (with an EARN_RULE_NOT_FOUND error) when the shop has none with this id.",
      args: { id: pathId("id") },
      returns: "EarnRule",
    },
  }),
  getShop: operation({
    method: "get",
    path: "/shop",
    tags: ["Shop"],
    summary: "Get the shop",
    description: "The shop's loyalty program settings.",
    answer: { kind: "one", description: "The shop record", schema: ShopSchema },
    run: (shop) => shop.getShop(),
    graphql: { field: "shop", description: "The loyalty program's shop-level settings.", args: {}, returns: "Shop" },
  }),
  listBeacons: operation({
    method: "get",
    path: "/beacons",
    tags: ["Beacons"],
    summary: "List beacons",
    description: "On-site announcements configured by the shop.",
    answer: { kind: "list", description: "The beacons", schema: BeaconSchema },
    run: (shop) => shop.listBeacons(),
    graphql: { field: "beacons", description: "All beacons (announcements) of the shop, active or not.", args: {}, returns: "[Beacon!]!" },
  }),
});
