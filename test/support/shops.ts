/**
 * Shops made through the control API for tests, with the headers their calls take.
 * @module
 */
import type { CallResult, TestSim } from "./sim.js";
import { AUTH } from "./sim.js";

export interface Made {
  id: string;
  /** Control calls. */
  key: Record<string, string>;
  /** API calls. */
  auth: Record<string, string>;
}

export async function newShop(sim: TestSim, body: object = { customers: 0 }): Promise<Made> {
  const made = (await sim.call("POST", "/__sim/shops", { body })).body;
  return { id: made.id, key: { "X-Api-Key": made.apiKey }, auth: { "X-Api-Key": made.apiKey, "X-Api-Secret": made.apiSecret } };
}

export const DEFAULT: Made = { id: "1", key: { "X-Api-Key": AUTH["X-Api-Key"] }, auth: AUTH };

/** A customer to create with POST /__sim/customers, holding 9 stamps. */
export const nine = (id: string) => ({ id, firstName: "Nine", lastName: "Stamps", email: `nine${id}@example.com`, stampBalance: 9 });

export const clockOf = async (sim: TestSim, shop: Made) => (await sim.call("GET", "/__sim/clock", { headers: shop.key })).body;

/** Status, code and details of an error answer. */
export const details = (res: CallResult) => [res.status, res.body.error.code, res.body.error.details];

export const NO_SUCH_SHOP = [{ in: "header", path: "X-Api-Key", message: "names no shop of this simulator (see GET /__sim/shops)" }];
