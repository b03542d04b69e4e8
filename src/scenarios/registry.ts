/**
 * The active scenarios and their counters. For each API request, the first active rule that
 * matches decides its answer. Scenarios added through the control API belong to one shop and come
 * first, newest first (like msw's `server.use`); scenarios loaded at start apply to every shop.
 * @module
 */
import { seededRandom, type RandomSource } from "../engine/random.js";
import type { Clock } from "../engine/clock.js";
import type { Respond, Rule, Scenario } from "./schema.js";
import { pathGlob, type PathGlob } from "./glob.js";

/** What a rule can match on, gathered once per request. */
export interface RequestFacts {
  operation?: string;
  method: string;
  /** Path below the API base, e.g. `/customers/123/redemptions`. */
  path: string;
  customerId?: string;
  apiKey?: string;
  shopId?: string;
  header(name: string): string | undefined;
  query: Record<string, string>;
  /** The parsed JSON body; only read when a rule matches on the body (see `wantsBody`). */
  body: unknown;
}

interface RuleState {
  rule: Rule;
  index: number;
  path?: PathGlob;
  /** Requests that matched, applied or not (what `after` counts). */
  matches: number;
  /** Requests the rule decided. */
  hits: number;
  window?: { start: number; count: number };
}

interface Active {
  scenario: Scenario;
  /** Owning shop id, or null for scenarios loaded at start (every shop). */
  owner: string | null;
  rules: RuleState[];
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

function matches(state: RuleState, facts: RequestFacts): boolean {
  const m = state.rule.match;
  if (m.operation !== undefined && m.operation !== facts.operation) return false;
  if (m.method !== undefined && m.method !== facts.method) return false;
  if (state.path && !state.path.test(facts.path)) return false;
  if (m.customerId !== undefined && m.customerId !== facts.customerId) return false;
  if (m.apiKey !== undefined && m.apiKey !== facts.apiKey) return false;
  if (m.headers && !Object.entries(m.headers).every(([k, v]) => facts.header(k) === v)) return false;
  if (m.query && !Object.entries(m.query).every(([k, v]) => own(facts.query, k) === v)) return false;
  if (m.body && !partialMatch(m.body, facts.body)) return false;
  return true;
}

export class ScenarioRegistry {
  #active: Active[] = [];
  #random: RandomSource;

  constructor(
    private readonly initial: Scenario[],
    private readonly clock: Clock,
    private readonly seed: number,
  ) {
    this.#random = seededRandom(seed);
    this.reset();
  }

  /** Back to the scenarios loaded at start, counters and random draws from the beginning. */
  reset(): void {
    this.#random = seededRandom(this.seed);
    this.#active = this.initial.map((s) => this.#activate(s, null));
  }

  #activate(scenario: Scenario, owner: string | null): Active {
    return {
      scenario,
      owner,
      rules: scenario.rules.map((rule, index) => ({
        rule,
        index,
        ...(rule.match.path !== undefined && { path: pathGlob(rule.match.path) }),
        matches: 0,
        hits: 0,
      })),
    };
  }

  /** Adds a shop's scenario, replacing one of the same name. */
  add(scenario: Scenario, owner: string): void {
    this.remove(scenario.name, owner);
    this.#active.unshift(this.#activate(scenario, owner));
  }

  /** Removes the shop's scenario of that name (the default shop also removes start-up ones). */
  remove(name: string, owner: string, isDefaultShop = false): boolean {
    const before = this.#active.length;
    this.#active = this.#active.filter((a) => !(a.scenario.name === name && (a.owner === owner || (isDefaultShop && a.owner === null))));
    return this.#active.length < before;
  }

  clear(owner: string, isDefaultShop = false): number {
    const before = this.#active.length;
    this.#active = this.#active.filter((a) => !(a.owner === owner || (isDefaultShop && a.owner === null)));
    return before - this.#active.length;
  }

  /** Whether any scenario applies to the shop at all: the common case is none, and then a request pays nothing. */
  hasScenarios(shopId: string): boolean {
    return this.#active.some((a) => a.owner === null || a.owner === shopId);
  }

  /** Whether a rule of the shop matches on the body, which is only then read and parsed. */
  wantsBody(shopId: string): boolean {
    return this.#visible(shopId).some((a) => a.rules.some((r) => r.rule.match.body !== undefined));
  }

  #visible(shopId: string | undefined): Active[] {
    return this.#active.filter((a) => a.owner === null || a.owner === shopId);
  }

  list(shopId: string): ScenarioSummary[] {
    return this.#visible(shopId).map((a) => ({
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

  /** The first active rule that matches and applies, with its counters moved. */
  decide(facts: RequestFacts): Decision | undefined {
    for (const active of this.#visible(facts.shopId)) {
      for (const state of active.rules) {
        const { rule } = state;
        if (rule.times !== undefined && state.hits >= rule.times) continue;
        if (!matches(state, facts)) continue;
        state.matches++;
        if (rule.after !== undefined && state.matches <= rule.after) continue;
        if (rule.probability !== undefined && !(this.#random.next() < rule.probability)) continue;
        state.hits++;
        return {
          scenario: active.scenario.name,
          rule: state.index,
          ...(rule.name !== undefined && { ruleName: rule.name }),
          respond: rule.respond,
          ...(rule.respond.rateLimit && { limit: this.#window(state, rule.respond.rateLimit) }),
        };
      }
    }
    return undefined;
  }

  #window(state: RuleState, config: { limit: number; windowSeconds: number }) {
    const now = this.clock.now();
    const length = config.windowSeconds * 1000;
    if (!state.window || now >= state.window.start + length || now < state.window.start) state.window = { start: now, count: 0 };
    const allowed = state.window.count < config.limit;
    if (allowed) state.window.count++;
    return {
      allowed,
      limit: config.limit,
      remaining: config.limit - state.window.count,
      retryAfterSeconds: Math.max(1, Math.ceil((state.window.start + length - now) / 1000)),
    };
  }

  /** A delay in ms: a number, or drawn from [min, max]. */
  drawDelay(delay: number | [number, number]): number {
    if (typeof delay === "number") return delay;
    return delay[0] + Math.floor(this.#random.next() * (delay[1] - delay[0] + 1));
  }
}
