/** @module Types of the values every request carries through the app. */
import type { Clock } from "../engine/clock.js";
import type { ShopEngine } from "../engine/shop-engine.js";

export interface AppEnv {
  Variables: {
    clock: Clock;
    /** The shop the request's credentials identify (set by the auth middleware). */
    shop: ShopEngine;
  };
}
