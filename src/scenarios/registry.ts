/**
 * The active scenarios and their counters, per shop. For each API request, the first active rule
 * of its shop that matches decides its answer. Scenarios added through the control API belong to
 * one shop and come first, newest first (like msw's `server.use`); scenarios loaded at start apply
 * to every shop, each shop with counters, rate windows and random draws of its own, so no shop's
 * requests change what another's get.
 * @module
 */
import { seededRandom, type RandomSource } from "../engine/random.js";
import type { Clock } from "../engine/clock.js";
import { GRAPHQL_PATH } from "../http/base.js";
import { FixedWindow } from "../http/fixed-window.js";
import type { Respond, Rule, Scenario } from "./schema.js";
import { pathGlob, type PathGlob } from "./glob.js";
import { scenarioBytes } from "./limits.js";
import type { RuleSkip } from "../http/journal/notes.js";

/** What a rule can match on, gathered once per request. */
export interface RequestFacts {
  operation?: string;
  method: string;
  /** Path below the API base, e.g. `/customers/123/redemptions`. */
  path: string;
  customerId?: string;
  apiKey?: string;
  shopId: string;
  header(name: string): string | undefined;
  query: Record<string, string>;
  /** The parsed JSON body; only read when a rule matches on the body (see `wantsBody`). */
  body: unknown;
  /** For a GraphQL root field (matched as its REST twin): its operation's name and the field. */
  graphql?: { operationName: string | null; field: string };
}

interface RuleState {
  rule: Rule;
  index: number;
  path?: PathGlob;
  /** Requests that matched, applied or not (what `after` counts). */
  matches: number;
  /** Requests the rule decided. */
  hits: number;
  /** For a rateLimit rule, made on its first decision. */
  window?: FixedWindow;
}

interface Active {
  scenario: Scenario;
  /** Owning shop id, or null for scenarios loaded at start (every shop). */
  owner: string | null;
  rules: RuleState[];
  /** What the scenario holds (`scenarioBytes`); the start-up ones are counted once, for all shops. */
  bytes: number;
}

/** One shop's scenarios: its own (newest first), then its copies of those loaded at start. */
interface ShopScenarios {
  active: Active[];
  /** Probabilities and delay ranges: the same seeded stream in every shop. */
  random: RandomSource;
}

export interface Decision {
  scenario: string;
  rule: number;
  ruleName?: string;
  respond: Respond;
  /** For rateLimit rules: the rule's window verdict. */
  limit?: { allowed: boolean; limit: number; remaining: number; retryAfterSeconds: number };
}

export interface ScenarioSummary {
  name: string;
  description?: string;
  owner: "all shops" | "this shop";
  rules: { index: number; name?: string; match: Rule["match"]; respond: Respond; hits: number; matches: number; remaining: number | null; spent: boolean }[];
}

/** `object[key]` when it is the object's own (never an inherited `constructor` or `toString`). */
function own(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/**
 * Every field of `expected` holds in `actual`; objects are matched partially, arrays whole. The
 * recursion follows `expected`, a scenario's body, which the schema bounds in depth.
 */
export function partialMatch(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => partialMatch(e, actual[i]));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => partialMatch(v, own(actual, k)));
  }
  return Object.is(expected, actual);
}

/** The `match` fields in the order they are checked. */
export type MatchField = "operation" | "method" | "path" | "customerId" | "apiKey" | "headers" | "query" | "body" | "api" | "graphql";

/** The first field of `match` the request does not meet, or undefined when it matches (`path`: the rule's glob). */
export function firstMismatch(m: Rule["match"], path: PathGlob | undefined, facts: RequestFacts): MatchField | undefined {
  if (m.operation !== undefined && m.operation !== facts.operation) return "operation";
  if (m.method !== undefined && m.method !== facts.method) return "method";
  if (path && !path.test(facts.path) && !(facts.graphql && m.path === GRAPHQL_PATH)) return "path";
  if (m.customerId !== undefined && m.customerId !== facts.customerId) return "customerId";
  if (m.apiKey !== undefined && m.apiKey !== facts.apiKey) return "apiKey";
  if (m.headers && !Object.entries(m.headers).every(([k, v]) => facts.header(k) === v)) return "headers";
  if (m.query && !Object.entries(m.query).every(([k, v]) => own(facts.query, k) === v)) return "query";
  if (m.body && !partialMatch(m.body, facts.body)) return "body";
  if (m.api !== undefined && m.api !== (facts.graphql ? "graphql" : "rest")) return "api";
  if (m.graphql && !(facts.graphql && (m.graphql.operationName === undefined || m.graphql.operationName === facts.graphql.operationName) && (m.graphql.field === undefined || m.graphql.field === facts.graphql.field))) return "graphql";
  return undefined;
}

const matches = (state: RuleState, facts: RequestFacts) => firstMismatch(state.rule.match, state.path, facts) === undefined;

/** Skips noted for one request at most: a trace names the rest as not noted. */
const MAX_SKIPS = 64;

export class ScenarioRegistry {
  /** Made on a shop's first use: a shop never seen has the start-up scenarios, counters at zero. */
  readonly #shops = new Map<string, ShopScenarios>();
  readonly #initialBytes: number;
  /** What the scenarios shops added hold, over all shops. */
  #addedBytes = 0;

  constructor(
    private readonly initial: Scenario[],
    /** The clock of a shop, which times its rules' rate windows. */
    private readonly clockOf: (shopId: string) => Clock,
    private readonly seed: number,
  ) {
    this.#initialBytes = initial.reduce((sum, s) => sum + scenarioBytes(s), 0);
  }

  /** What every scenario holds, in bytes (`scenarioBytes`): those loaded at start once, and each shop's own. */
  get bytes(): number {
    return this.#initialBytes + this.#addedBytes;
  }

  /** What the shop's own scenario of that name holds (0 without one): an add of that name frees it. */
  bytesOf(name: string, owner: string): number {
    return this.#shops.get(owner)?.active.find((a) => a.owner === owner && a.scenario.name === name)?.bytes ?? 0;
  }

  /** Every shop back to the scenarios loaded at start, counters and random draws from the beginning. */
  reset(): void {
    this.#shops.clear();
    this.#addedBytes = 0;
  }

  /** One shop back to the scenarios loaded at start (its own removed), counters and draws from the beginning. */
  resetShop(shopId: string): void {
    if (this.#shops.has(shopId)) this.#removeWhere(shopId, () => true);
    this.#shops.delete(shopId);
  }

  #of(shopId: string): ShopScenarios {
    let found = this.#shops.get(shopId);
    if (!found) {
      found = { active: this.initial.map((s) => this.#activate(s, null)), random: seededRandom(this.seed) };
      this.#shops.set(shopId, found);
    }
    return found;
  }

  #activate(scenario: Scenario, owner: string | null, bytes = 0): Active {
    return {
      scenario,
      owner,
      bytes,
      rules: scenario.rules.map((rule, index) => ({
        rule,
        index,
        ...(rule.match.path !== undefined && { path: pathGlob(rule.match.path) }),
        matches: 0,
        hits: 0,
      })),
    };
  }

  /** Adds a shop's scenario, replacing one of the same name; `bytes`: what it holds, when already measured. */
  add(scenario: Scenario, owner: string, bytes = scenarioBytes(scenario)): void {
    this.remove(scenario.name, owner);
    this.#of(owner).active.unshift(this.#activate(scenario, owner, bytes));
    this.#addedBytes += bytes;
  }

  /** Removes the shop's scenario of that name (the default shop also removes start-up ones, for itself). */
  remove(name: string, owner: string, isDefaultShop = false): boolean {
    return this.#removeWhere(owner, (a) => a.scenario.name === name && (a.owner === owner || isDefaultShop)) > 0;
  }

  clear(owner: string, isDefaultShop = false): number {
    return this.#removeWhere(owner, (a) => a.owner === owner || isDefaultShop);
  }

  #removeWhere(shopId: string, removed: (active: Active) => boolean): number {
    const shop = this.#of(shopId);
    const before = shop.active.length;
    shop.active = shop.active.filter((a) => {
      if (!removed(a)) return true;
      if (a.owner !== null) this.#addedBytes -= a.bytes;
      return false;
    });
    return before - shop.active.length;
  }

  /** Whether any scenario applies to the shop at all: the common case is none, and then a request pays nothing. */
  hasScenarios(shopId: string): boolean {
    const shop = this.#shops.get(shopId);
    return shop === undefined ? this.initial.length > 0 : shop.active.length > 0;
  }

  /** Whether a rule of the shop matches on the body, which is only then read and parsed. */
  wantsBody(shopId: string): boolean {
    return this.#of(shopId).active.some((a) => a.rules.some((r) => r.rule.match.body !== undefined));
  }

  list(shopId: string): ScenarioSummary[] {
    return this.#of(shopId).active.map((a) => ({
      name: a.scenario.name,
      ...(a.scenario.description !== undefined && { description: a.scenario.description }),
      owner: a.owner === null ? "all shops" : "this shop",
      rules: a.rules.map((s) => {
        const remaining = s.rule.times === undefined ? null : s.rule.times - s.hits;
        return {
          index: s.index,
          ...(s.rule.name !== undefined && { name: s.rule.name }),
          match: s.rule.match,
          respond: s.rule.respond,
          hits: s.hits,
          matches: s.matches,
          remaining,
          spent: remaining === 0,
        };
      }),
    }));
  }

  /**
   * The first active rule that matches and applies, with its counters moved. Rules passed over
   * for a dynamic condition (spent, `after`, the probability draw) are added to `skips`.
   */
  decide(facts: RequestFacts, skips: RuleSkip[] = []): Decision | undefined {
    const shop = this.#of(facts.shopId);
    const skip = (s: RuleSkip) => skips.length < MAX_SKIPS && skips.push(s);
    for (const active of shop.active) {
      const scenario = active.scenario.name;
      for (const state of active.rules) {
        const { rule } = state;
        if (rule.times !== undefined && state.hits >= rule.times) {
          if (matches(state, facts)) skip({ scenario, rule: state.index, skipped: "spent", times: rule.times });
          continue;
        }
        if (!matches(state, facts)) continue;
        state.matches++;
        if (rule.after !== undefined && state.matches <= rule.after) {
          skip({ scenario, rule: state.index, skipped: "after", after: rule.after, matches: state.matches });
          continue;
        }
        if (rule.probability !== undefined) {
          const draw = shop.random.next();
          if (!(draw < rule.probability)) {
            skip({ scenario, rule: state.index, skipped: "probability", probability: rule.probability, draw });
            continue;
          }
        }
        state.hits++;
        return {
          scenario: active.scenario.name,
          rule: state.index,
          ...(rule.name !== undefined && { ruleName: rule.name }),
          respond: rule.respond,
          ...(rule.respond.rateLimit && { limit: this.#limit(state, rule.respond.rateLimit, this.clockOf(facts.shopId).now()) }),
        };
      }
    }
    return undefined;
  }

  #limit(state: RuleState, config: { limit: number; windowSeconds: number }, now: number): NonNullable<Decision["limit"]> {
    state.window ??= new FixedWindow();
    return { limit: config.limit, ...state.window.hit(config.limit, config.windowSeconds * 1000, now) };
  }

  /** A delay in ms: a number, or drawn from [min, max] by the shop's random stream. */
  drawDelay(delay: number | [number, number], shopId: string): number {
    if (typeof delay === "number") return delay;
    return delay[0] + Math.floor(this.#of(shopId).random.next() * (delay[1] - delay[0] + 1));
  }
}
