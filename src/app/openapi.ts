/**
 * The OpenAPI document's fixed parts. Paths and schemas come from the routes themselves, so the
 * document cannot disagree with the code; `npm run documents` writes it to openapi/openapi.json.
 * @module
 */
import { VERSION } from "../version.js";

export const DEFAULT_SERVER = { url: "http://127.0.0.1:4747", description: "loyalty-sim on its default port" };

export const TAGS = [
  { name: "Customers", description: "Customers synced from the commerce platform" },
  { name: "Stamps", description: "Stamp awards, adjustments, earn rules and the activity ledger" },
  { name: "Redemptions", description: "Spending stamps on rewards, and granting rewards" },
  { name: "Reward codes", description: "Discount codes issued by redemptions and grants" },
  { name: "Rewards", description: "Reward products" },
  { name: "Tiers", description: "VIP tiers" },
  { name: "Earn rules", description: "Ways to earn stamps" },
  { name: "Shop", description: "The shop's program settings" },
  { name: "Beacons", description: "On-site announcements" },
  { name: "Simulator control", description: "loyalty-sim's own control API: reset, scenarios, journal, clock, shops. No credentials." },
];

export function openApiConfig(servers: { url: string; description: string }[] = [DEFAULT_SERVER]) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Loyalty REST API (loyalty-sim)",
      version: VERSION,
      description:
        "A stateful simulator of a shop's loyalty (stamp-card) REST API. Every request under `/rest_api/v1` needs the `X-Api-Key` and `X-Api-Secret` headers. The same shops, data, credentials and quota answer GraphQL at `POST /graphql` (not described here: its schema is at `/graphql/schema.graphql`, GraphiQL at `GET /graphql`). Each operation lists the answers it gives itself, and as the ranges `2XX` to `5XX` those the `Prefer` header forces; a scenario rule (control API) answers what the rule says.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers,
    tags: TAGS,
    security: [{ ApiKey: [], ApiSecret: [] }],
  };
}

/** The two credential headers, as the document's security schemes. */
export const SECURITY_SCHEMES = {
  ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key", description: "The shop's API key (default `sim_key`)" },
  ApiSecret: { type: "apiKey", in: "header", name: "X-Api-Secret", description: "The shop's API secret (default `sim_secret`)" },
} as const;
