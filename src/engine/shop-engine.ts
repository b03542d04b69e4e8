/**
 * One shop's loyalty engine: every operation of the API as a method, over the shop's store, its
 * clock and its seeded random source. No HTTP here.
 * @module
 */
import type { ShopStore } from "../store/shop-store.js";
import type { ShopAccess } from "../store/types.js";
import type { SimClock } from "./clock.js";
import type { EngineContext, ProgramId } from "./context.js";
import * as catalog from "./catalog.js";
import * as customers from "./customers.js";
import { DomainError } from "./errors.js";
import type { PageQuery } from "./pagination.js";
import { ReplayableRandom, type RandomSource } from "./random.js";
import * as rewards from "./rewards.js";
import * as stamps from "./stamps.js";

export class ShopEngine {
  readonly ctx: EngineContext;

  readonly #random: ReplayableRandom;

  constructor(
    store: ShopStore,
    /** The shop's own time: moving it moves no other shop's. */
    readonly clock: SimClock,
    random: RandomSource,
  ) {
    this.#random = new ReplayableRandom(random);
    this.ctx = { store, clock, random: this.#random };
  }

  get id(): string {
    return this.ctx.store.id;
  }

  get store(): ShopStore {
    return this.ctx.store;
  }

  get access(): ShopAccess {
    return this.ctx.store.data.access;
  }

  listCustomers(filter: customers.CustomerFilter, query: PageQuery) {
    return customers.listCustomers(this.ctx, filter, query);
  }
  getCustomer(id: string) {
    return customers.getCustomer(this.ctx, id);
  }
  updateCustomer(id: string, patch: customers.CustomerPatch) {
    return this.#write(() => customers.updateCustomer(this.ctx, id, patch));
  }
  setCustomerTier(id: string, change: customers.TierChange) {
    return this.#write(() => customers.setCustomerTier(this.ctx, id, change));
  }
  syncCustomer(input: customers.NewCustomer) {
    return this.#write(() => customers.syncCustomer(this.ctx, input));
  }
  mergeCustomer(id: string, intoId: string) {
    return this.#write(() => customers.mergeCustomer(this.ctx, id, intoId));
  }
  awardStamps(id: string, input: stamps.ManualStamps) {
    return this.#write(() => stamps.awardStamps(this.ctx, id, input));
  }
  adjustStamps(id: string, input: stamps.ManualStamps) {
    return this.#write(() => stamps.adjustStamps(this.ctx, id, input));
  }
  processEarnRule(id: string, ruleId: number) {
    return this.#write(() => stamps.processEarnRule(this.ctx, id, ruleId));
  }
  listActivities(id: string, query: PageQuery) {
    return stamps.listActivities(this.ctx, id, query);
  }
  listRewardCodes(id: string, availableOnly: boolean) {
    return rewards.listRewardCodes(this.ctx, id, availableOnly);
  }
  useRewardCode(id: string, codeId: ProgramId) {
    return this.#write(() => rewards.useRewardCode(this.ctx, id, codeId));
  }
  voidRewardCode(id: string, codeId: ProgramId) {
    return this.#write(() => rewards.voidRewardCode(this.ctx, id, codeId));
  }
  redeemReward(id: string, rewardId: number, variableAmount?: number) {
    return this.#write(() => rewards.redeemReward(this.ctx, id, rewardId, variableAmount));
  }
  grantReward(id: string, rewardId: number, variableAmount?: number) {
    return this.#write(() => rewards.grantReward(this.ctx, id, rewardId, variableAmount));
  }
  listRewards() {
    return rewards.listRewards(this.ctx);
  }
  getReward(id: ProgramId) {
    return rewards.getReward(this.ctx, id);
  }
  getShop() {
    return catalog.getShop(this.ctx);
  }
  listTiers() {
    return catalog.listTiers(this.ctx);
  }
  getTier(id: ProgramId) {
    return catalog.getTier(this.ctx, id);
  }
  listEarnRules() {
    return catalog.listEarnRules(this.ctx);
  }
  getEarnRule(id: ProgramId) {
    return catalog.getEarnRule(this.ctx, id);
  }
  listBeacons() {
    return catalog.listBeacons(this.ctx);
  }

  /**
   * Runs a write, result included, so that it either completes or changes nothing: anything but a
   * DomainError (a refusal, which comes before any change) is a bug, and the store undoes what it
   * saw change (and the random source gives back its draws) before the bug is answered with a 500.
   */
  #write<T>(run: () => T): T {
    const checkpoint = this.store.checkpoint();
    this.#random.record();
    let undone = false;
    try {
      return run();
    } catch (error) {
      undone = !(error instanceof DomainError);
      throw error;
    } finally {
      if (undone) this.store.rollback(checkpoint);
      else this.store.commit(checkpoint);
      this.#random.stop(undone);
    }
  }

  /** The invariant every test checks: each balance equals the sum of its ledger. */
  ledgerMismatches(): string[] {
    const out: string[] = [];
    for (const c of this.store.data.customers) {
      const sum = this.store.activitiesOf(c.id).reduce((s, a) => s + a.stampChange, 0);
      if (sum !== c.balance) out.push(`${c.id}: balance ${c.balance}, ledger ${sum}`);
    }
    return out;
  }
}
