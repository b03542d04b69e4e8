/**
 * The root resolvers: each checks its arguments as its REST twin would, calls the shop's engine
 * as the twin's handler does, and returns the engine's view (whose field names are GraphQL's).
 * A refusal is a field error whose message is the code, as production writes it; a decision taken
 * before execution (`forced`) answers instead of the engine.
 * @module
 */
import { GraphQLError, type GraphQLFieldResolver } from "graphql";
import type { ProgramId } from "../engine/context.js";
import { DomainError, ERROR_MESSAGES, type ErrorCode } from "../engine/errors.js";
import type { Page, PageQuery } from "../engine/pagination.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import { graphqlCursorOf, restCursorOf } from "./cursors.js";
import { argumentIssues, asArgumentIssues, type ArgumentIssue, type RootField } from "./twins.js";

/** Codes a field can end with: REST's, and GraphQL's own refusal of a tier change. */
export type FieldErrorCode = ErrorCode | "TIER_UPDATE_FAILED";

/** What was decided for one root field before execution (a scenario rule, a `Prefer` header). */
export interface FieldDecision {
  /** The field fails with this code; its resolver never runs. */
  error?: FieldErrorCode;
  /** `extensions.reason` of that error. */
  reason?: string;
  /** The field waits this long before it resolves (or fails). */
  delayMs?: number;
}

export interface GraphQLContext {
  shop: ShopEngine;
  /** Decisions by response key (the alias, else the field name) of root fields. */
  forced?: ReadonlyMap<string, FieldDecision>;
  /** How a delayed field waits (the caller's may end early when the client gives up); default a timer. */
  wait?: (ms: number) => Promise<void>;
  /** Told of anything a resolver throws that is not a refusal: a bug, answered INTERNAL_ERROR. */
  onBug?: (error: unknown) => void;
}

/** A field error as production writes one: the code as `message`, the simulator's why in `extensions`. */
export function fieldError(code: FieldErrorCode, reason: string, details?: readonly ArgumentIssue[]): GraphQLError {
  return new GraphQLError(code, { extensions: { reason, ...(details && details.length > 0 && { details }) } });
}

/**
 * A program id (reward, earn rule, tier) as the engine looks it up. The engine compares ids given
 * as text with the record's id as text (`ProgramId`), so "044" or "abc" names nothing; its write
 * methods still declare `number`, which a text id is, to them, indistinguishable from.
 */
const programId = (id: string): number => id as ProgramId as number;

/** The single-customer view (the engine hands it with its kept JSON text, which GraphQL does not use). */
function readCustomer(shop: ShopEngine, id: string) {
  return shop.getCustomer(id).value;
}

type Args = Record<string, unknown>;
const text = (value: unknown) => value as string;
const optional = <T>(value: unknown) => (value ?? undefined) as T | undefined;

function pageQuery(args: Args): PageQuery {
  const after = optional<string>(args.after);
  const before = optional<string>(args.before);
  return {
    limit: optional<number>(args.limit) ?? 20,
    // Checked before: both are cursors of GraphQL's form.
    ...(after !== undefined && { after: restCursorOf(after)! }),
    ...(before !== undefined && { before: restCursorOf(before)! }),
    hasCount: optional<boolean>(args.hasCount) ?? false,
  };
}

function connection<T>(page: Page<T>) {
  const { pagination } = page;
  return {
    items: page.items,
    pageInfo: {
      ...pagination,
      nextCursor: graphqlCursorOf(pagination.nextCursor),
      previousCursor: graphqlCursorOf(pagination.previousCursor),
    },
  };
}

function notes(args: Args) {
  const comment = optional<string>(args.comment);
  const internalComment = optional<string>(args.internalComment);
  return { ...(comment !== undefined && { comment }), ...(internalComment !== undefined && { internalComment }) };
}

function patchOf(input: Args) {
  const month = optional<number>(input.birthdayMonth);
  const day = optional<number>(input.birthdayDay);
  const excluded = optional<boolean>(input.excluded);
  return {
    ...(month !== undefined && day !== undefined && { birthday: { month, day } }),
    ...(excluded !== undefined && { excluded }),
  };
}

/** Each root field's engine call, as its REST twin's handler makes it. */
const CALLS: Record<RootField, (args: Args, shop: ShopEngine) => unknown> = {
  shop: (_, shop) => shop.getShop(),
  earnRules: (_, shop) => shop.listEarnRules(),
  earnRule: (a, shop) => shop.getEarnRule(text(a.id)),
  rewards: (_, shop) => shop.listRewards(),
  reward: (a, shop) => shop.getReward(text(a.id)),
  tiers: (_, shop) => shop.listTiers(),
  tier: (a, shop) => shop.getTier(text(a.id)),
  beacons: (_, shop) => shop.listBeacons(),
  customers: (a, shop) => {
    const email = optional<string>(a.email);
    return connection(shop.listCustomers(email !== undefined ? { email } : {}, pageQuery(a)));
  },
  customer: (a, shop) => readCustomer(shop, text(a.id)),
  customerActivities: (a, shop) => connection(shop.listActivities(text(a.customerId), pageQuery(a))),
  rewardCodes: (a, shop) => shop.listRewardCodes(text(a.customerId), optional<boolean>(a.available) ?? false),
  updateCustomer: (a, shop) => shop.updateCustomer(text(a.id), patchOf(a.input as Args)),
  awardStamps: (a, shop) => shop.awardStamps(text(a.customerId), { stamps: a.stamps as number, ...notes(a) }),
  adjustStamps: (a, shop) => shop.adjustStamps(text(a.customerId), { stamps: a.stamps as number, ...notes(a) }),
  processActivity: (a, shop) => shop.processEarnRule(text(a.customerId), programId(text(a.earnRuleId))),
  redeemReward: (a, shop) => shop.redeemReward(text(a.customerId), programId(text(a.rewardProductId)), optional(a.variableAmount)),
  grantReward: (a, shop) => shop.grantReward(text(a.customerId), programId(text(a.rewardProductId)), optional(a.variableAmount)),
  markRewardCodeUsed: (a, shop) => shop.useRewardCode(text(a.customerId), text(a.rewardCodeId)),
  voidRewardCode: (a, shop) => shop.voidRewardCode(text(a.customerId), text(a.rewardCodeId)),
  setCustomerTier: (a, shop) =>
    shop.setCustomerTier(text(a.customerId), {
      tierId: programId(text(a.tierId)),
      triggerRewards: optional<boolean>(a.triggerRewards) ?? false,
      ...notes(a),
    }),
};

/** What a thrown refusal or bug becomes: the field's error. */
function asFieldError(field: RootField, error: unknown, ctx: GraphQLContext): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof DomainError) {
    // REST refuses a removed or merged customer's tier change as it refuses any change of theirs;
    // GraphQL documents a code of its own for it.
    const code = field === "setCustomerTier" && error.code === "ACTIVITY_NOT_AWARDED" ? "TIER_UPDATE_FAILED" : (error.code as ErrorCode);
    return fieldError(code, error.message, error.details && asArgumentIssues(field, error.details));
  }
  ctx.onBug?.(error);
  return fieldError("INTERNAL_ERROR", ERROR_MESSAGES.INTERNAL_ERROR);
}

function resolve(field: RootField, args: Args, ctx: GraphQLContext, decision: FieldDecision | undefined): unknown {
  if (decision?.error !== undefined) throw fieldError(decision.error, decision.reason ?? `forced for ${field}`);
  try {
    const issues = argumentIssues(field, args);
    if (issues.length > 0) throw fieldError("VALIDATION_ERROR", ERROR_MESSAGES.VALIDATION_ERROR, issues);
    return CALLS[field](args, ctx.shop);
  } catch (error) {
    throw asFieldError(field, error, ctx);
  }
}

/** A root field's resolver: the schema's root fields carry these (both executors call them there). */
type RootResolver = GraphQLFieldResolver<unknown, GraphQLContext, Args>;

function rootResolver(field: RootField): RootResolver {
  return (_, args, ctx, info) => {
    const decision = ctx.forced?.get(String(info.path.key));
    const delayMs = decision?.delayMs ?? 0;
    if (delayMs <= 0) return resolve(field, args, ctx, decision);
    const wait = ctx.wait ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
    return wait(delayMs).then(() => resolve(field, args, ctx, decision));
  };
}

/** A resolver per root field, by field name. */
export const rootResolvers: Readonly<Record<RootField, RootResolver>> = Object.fromEntries(
  (Object.keys(CALLS) as RootField[]).map((field) => [field, rootResolver(field)]),
) as Record<RootField, RootResolver>;
