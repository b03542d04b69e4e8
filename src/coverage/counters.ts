/**
 * The coverage counters: each answered API request counts once in its cell (operation x outcome,
 * REST or GraphQL, forced or natural) of its shop, read from the request's record when the
 * journal's recorder is done with it. A shop's counters are a fixed array, so a million requests
 * cost what ten do; they are kept apart from the journal, which forgets.
 * @module
 */
import { REST_TWINS, type RootField } from "../contract/index.js";
import type { Engine } from "../engine/engine.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { Exchange } from "../http/exchange.js";
import { customerIdOf } from "../http/operation.js";
import { requestHeader } from "../http/request-input.js";
import { OPERATION_INDEX, OUTCOME_INDEX, outcomeOf, WRITES, type Outcome } from "./catalogue.js";
import { WriteMemory } from "./duplicates.js";
import { COUNTERS_SIZE, coverageReport, PER_CELL, ROW, type CoverageReport } from "./report.js";

/** A root field the GraphQL side journals as never run (a mutation stopped before it). */
const NOT_RUN = "NOT_RUN";

interface ShopCounters {
  counts: Uint32Array;
  writes: WriteMemory;
}

export class Coverage {
  readonly #shops = new Map<string, ShopCounters>();

  constructor(private readonly engine: Pick<Engine, "shop" | "shopByApiKey">) {}

  /** The recorder's hook: counts the answered request in its shop's cells. */
  readonly count = (exchange: Exchange, status: number | null): void => {
    const counters = this.#countersOf(exchange);
    if (counters === undefined) return;
    if (exchange.rootFields !== undefined) this.#countGraphQL(exchange, counters, status);
    else this.#countRest(exchange, counters, status);
  };

  #countRest(exchange: Exchange, counters: ShopCounters, status: number | null): void {
    const id = exchange.route?.operationId;
    const op = id === undefined ? undefined : OPERATION_INDEX.get(id);
    if (op === undefined) return;
    const { decidedBy, committed } = exchange;
    const forced = decidedBy === "scenario" || decidedBy === "prefer";
    const write = WRITES[op]!;
    const outcome = outcomeOf({ write, code: exchange.errorCode, fault: exchange.fault, committedStatus: committed?.status, forced, status });
    if (outcome === undefined) return;
    add(counters.counts, op, outcome, false, forced);
    if (write && (outcome === "ok" || outcome === "lostAfterCommit") && (outcome === "lostAfterCommit" || counters.writes.watching)) {
      counters.writes.wrote(exchange, id!, customerIdOf(exchange) ?? null, exchange.c.req.path, outcome === "lostAfterCommit");
    }
  }

  /**
   * Each root field counts in its operation's cell: with its own outcome when the operation ran
   * (`NOT_RUN` fields aside), else with the answer the whole request got (a fault, a refusal, a
   * rule's answer after a commit, which a mutation field that succeeded lost).
   */
  #countGraphQL(exchange: Exchange, counters: ShopCounters, status: number | null): void {
    const { graphql, committed, fault, decidedBy, forcedFields } = exchange;
    const wholeForced = decidedBy === "scenario" || decidedBy === "prefer";
    const whole = committed !== undefined || fault !== undefined || graphql === undefined;
    const fields = exchange.rootFields!;
    for (let i = 0; i < fields.length; i++) {
      const { field, responseKey } = fields[i]!;
      const id = REST_TWINS[field as RootField]?.operation;
      const op = id === undefined ? undefined : OPERATION_INDEX.get(id);
      if (op === undefined) continue;
      const ran = graphql?.fields[i];
      const write = WRITES[op]!;
      let outcome: Outcome | undefined;
      let forced: boolean;
      if (whole) {
        forced = wholeForced;
        const committedOk = committed === undefined ? undefined : ran !== undefined && ran.error === null;
        outcome = outcomeOf({ write, code: exchange.errorCode, fault, committedStatus: committed?.status, ...(committedOk !== undefined && { committedOk }), forced, status });
      } else {
        if (ran === undefined || ran.error === NOT_RUN) continue;
        forced = forcedFields?.get(responseKey)?.error !== undefined;
        outcome = outcomeOf({ write, code: ran.error ?? undefined, fault: undefined, committedStatus: undefined, forced, status });
      }
      if (outcome === undefined) continue;
      add(counters.counts, op, outcome, true, forced);
      if (write && ran !== undefined && (outcome === "ok" || outcome === "lostAfterCommit") && (outcome === "lostAfterCommit" || counters.writes.watching)) {
        counters.writes.wrote(exchange, id!, ran.customerId, responseKey, outcome === "lostAfterCommit");
      }
    }
  }

  /** The shop the request counts for: the one its credentials named, or for a 401, the one its `X-Api-Key` names (a wrong secret); none else. */
  #countersOf(exchange: Exchange): ShopCounters | undefined {
    let shop: ShopEngine | undefined = exchange.shop;
    if (shop === undefined) {
      if (exchange.errorCode !== "UNAUTHORIZED") return undefined;
      const key = requestHeader(exchange.c, "x-api-key");
      shop = key === undefined ? undefined : this.engine.shopByApiKey(key);
      if (shop === undefined) return undefined;
    }
    let counters = this.#shops.get(shop.id);
    // A request that outlived its shop's deletion makes no counters for it again.
    if (counters === undefined && this.engine.shop(shop.id) !== undefined) this.#shops.set(shop.id, (counters = { counts: new Uint32Array(COUNTERS_SIZE), writes: new WriteMemory() }));
    return counters;
  }

  /** One shop's report, or (`shops` several) their sum as `name`. */
  report(name: string, shops: readonly string[]): CoverageReport {
    const sum = new Uint32Array(COUNTERS_SIZE);
    const duplicates = [];
    for (const id of shops) {
      const counters = this.#shops.get(id);
      if (!counters) continue;
      for (let i = 0; i < COUNTERS_SIZE; i++) sum[i]! += counters.counts[i]!;
      duplicates.push(...counters.writes.duplicates);
    }
    return coverageReport(name, sum, duplicates);
  }

  /** Forgets every shop's counts, or one shop's. */
  clear(shopId?: string): void {
    if (shopId === undefined) this.#shops.clear();
    else this.#shops.delete(shopId);
  }

  /** How many shops have counters (a test holds the structure to its bound). */
  get size(): number {
    return this.#shops.size;
  }
}

function add(counts: Uint32Array, op: number, outcome: Outcome, graphql: boolean, forced: boolean): void {
  counts[op * ROW + OUTCOME_INDEX.get(outcome)! * PER_CELL + (graphql ? 2 : 0) + (forced ? 1 : 0)]! += 1;
}
