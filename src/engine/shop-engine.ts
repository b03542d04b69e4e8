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
    return this.#write(id, () => customers.updateCustomer(this.ctx, id, patch));
  }
  setCustomerTier(id: string, change: customers.TierChange) {
    return this.#write(id, () => customers.setCustomerTier(this.ctx, id, change));
  }
  syncCustomer(input: customers.NewCustomer) {
    return this.#write(undefined, () => customers.syncCustomer(this.ctx, input));
  }
  mergeCustomer(id: string, intoId: string) {
    return this.#write(id, () => customers.mergeCustomer(this.ctx, id, intoId), intoId);
  }
  awardStamps(id: string, input: stamps.ManualStamps) {
    return this.#write(id, () => stamps.awardStamps(this.ctx, id, input));
  }
  adjustStamps(id: string, input: stamps.ManualStamps) {
    return this.#write(id, () => stamps.adjustStamps(this.ctx, id, input));
  }
  processEarnRule(id: string, ruleId: number) {
    return this.#write(id, () => stamps.processEarnRule(this.ctx, id, ruleId));
  }
  listActivities(id: string, query: PageQuery) {
    return stamps.listActivities(this.ctx, id, query);
  }
  listRewardCodes(id: string, availableOnly: boolean) {
    return rewards.listRewardCodes(this.ctx, id, availableOnly);
  }
  useRewardCode(id: string, codeId: ProgramId) {
    return this.#write(id, () => rewards.useRewardCode(this.ctx, id, codeId), undefined, Number(codeId));
  }
  voidRewardCode(id: string, codeId: ProgramId) {
    return this.#write(id, () => rewards.voidRewardCode(this.ctx, id, codeId), undefined, Number(codeId));
  }
  redeemReward(id: string, rewardId: number, variableAmount?: number) {
    return this.#write(id, () => rewards.redeemReward(this.ctx, id, rewardId, variableAmount));
  }
  grantReward(id: string, rewardId: number, variableAmount?: number) {
    return this.#write(id, () => rewards.grantReward(this.ctx, id, rewardId, variableAmount));
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
   * DomainError (a refusal, which comes before any change) is a bug, and the shop is put back as
   * it was (its random draws included) before the bug is answered with a 500. The ids name the
   * records the write may change in place (none for a new customer).
   */
  #write<T>(customerId: string | undefined, run: () => T, otherId?: string, codeId?: number): T {
    const checkpoint = this.store.checkpoint(customerId, otherId, codeId);
    this.#random.record();
    let undone = false;
    try {
      return run();
    } catch (error) {
      undone = !(error instanceof DomainError);
      if (undone) this.store.rollback(checkpoint);
      throw error;
    } finally {
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
