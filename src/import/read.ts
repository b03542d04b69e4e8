/**
 * What `import` reads from the source, through the contract's GET operations (their paths and
 * answer schemas): the program, then the customers (oldest first, as the list gives them), each
 * with their newest activities and their reward codes, and any customer one of them was merged
 * into. `plan` lists the same requests without sending them.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import { OPERATIONS } from "../contract/index.js";
import { API_BASE } from "../http/base.js";
import { envelope, listEnvelope, pagedEnvelope } from "../http/schemas.js";
import type { PoliteReader } from "./client.js";

const { getShop, listTiers, listEarnRules, listRewards, listBeacons, listCustomers, getCustomer, listActivities, listRewardCodes } = OPERATIONS;

/** Production's page size limit: the importer reads in pages this large. */
export const PAGE = 1000;

type Out<S extends z.ZodType> = z.output<S>;
export type SourceCustomerRecord = Out<typeof listCustomers.answer.schema>;
export type SourceActivity = Out<typeof listActivities.answer.schema>;
export type SourceCode = Out<typeof listRewardCodes.answer.schema>;

export interface SourceCustomer {
  customer: SourceCustomerRecord;
  /** Newest first, as the source lists them: at most `--activities`. */
  activities: SourceActivity[];
  /** Whether older activities were left behind (the history is cut). */
  cut: boolean;
  codes: SourceCode[];
}

export interface SourceData {
  shop: Out<typeof getShop.answer.schema>;
  tiers: Out<typeof listTiers.answer.schema>[];
  earnRules: Out<typeof listEarnRules.answer.schema>[];
  rewards: Out<typeof listRewards.answer.schema>[];
  beacons: Out<typeof listBeacons.answer.schema>[];
  /** The customers asked for, in the source's order, then those they were merged into. */
  customers: SourceCustomer[];
  /** How many of `customers` were asked for (the rest are merge targets). */
  listed: number;
}

export interface ReadOptions {
  customers: number | "all";
  activities: number;
}

/** How many requests the import expects to send in all: grows as answers tell how much there is. */
export interface Estimate {
  total: number;
}

/** A path below the API's base: the operation's, its `{name}`s filled, with a query. */
function pathOf(template: string, params: Record<string, string> = {}, query: Record<string, string | number | boolean | undefined> = {}): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === "" ? path : `${path}?${text}`;
}

const PROGRAM_READS = [getShop.path, listTiers.path, listEarnRules.path, listRewards.path, listBeacons.path];

export async function readSource(reader: PoliteReader, options: ReadOptions, estimate: Estimate, progress: (line: string) => void): Promise<SourceData> {
  estimate.total = PROGRAM_READS.length + (options.customers === 0 ? 0 : 1);
  const shop = (await reader.get(getShop.path, envelope(getShop.answer.schema))).data;
  const tiers = (await reader.get(listTiers.path, listEnvelope(listTiers.answer.schema))).data;
  const earnRules = (await reader.get(listEarnRules.path, listEnvelope(listEarnRules.answer.schema))).data;
  const rewards = (await reader.get(listRewards.path, listEnvelope(listRewards.answer.schema))).data;
  const beacons = (await reader.get(listBeacons.path, listEnvelope(listBeacons.answer.schema))).data;
  progress(`read the program (${reader.sent} requests)`);

  const wanted = options.customers === "all" ? Number.POSITIVE_INFINITY : options.customers;
  const listed: SourceCustomerRecord[] = [];
  let after: string | undefined;
  while (listed.length < wanted) {
    const first = listed.length === 0 && after === undefined;
    const query = { limit: Math.min(PAGE, wanted - listed.length), ...(first && { hasCount: true }), after };
    const page = await reader.get(pathOf(listCustomers.path, {}, query), pagedEnvelope(listCustomers.answer.schema));
    if (first) {
      const total = Math.min(wanted, page.meta.pagination.count ?? page.data.length);
      estimate.total += Math.max(0, Math.ceil(total / PAGE) - 1) + 2 * total;
    }
    listed.push(...page.data);
    if (!page.meta.pagination.hasNext || page.meta.pagination.nextCursor === null) break;
    after = page.meta.pagination.nextCursor;
  }

  const customers: SourceCustomer[] = [];
  for (const customer of listed) {
    customers.push(await readCustomer(reader, customer, options.activities, estimate));
    progress(`read ${customers.length} of ${listed.length} customers (${reader.sent} requests)`);
  }
  // A merged customer points at the one it was merged into: read that one too, so the reference holds.
  const have = new Set(customers.map((c) => c.customer.id));
  for (let i = 0; i < customers.length; i++) {
    const into = customers[i]!.customer.mergedIntoCustomerId;
    if (into === undefined || have.has(into)) continue;
    have.add(into);
    estimate.total += 3;
    const { nextReward: _, ...target } = (await reader.get(pathOf(getCustomer.path, { id: into }), envelope(getCustomer.answer.schema))).data;
    customers.push(await readCustomer(reader, target, options.activities, estimate));
    progress(`read customer ${into}, whom a customer was merged into (${reader.sent} requests)`);
  }
  return { shop, tiers, earnRules, rewards, beacons, customers, listed: listed.length };
}

async function readCustomer(reader: PoliteReader, customer: SourceCustomerRecord, wanted: number, estimate: Estimate): Promise<SourceCustomer> {
  const activities: SourceActivity[] = [];
  let after: string | undefined;
  let cut = false;
  for (;;) {
    const first = after === undefined;
    const query = { limit: Math.min(PAGE, wanted - activities.length), ...(first && { hasCount: true }), after };
    const page = await reader.get(pathOf(listActivities.path, { id: customer.id }, query), pagedEnvelope(listActivities.answer.schema));
    const { hasNext, nextCursor, count } = page.meta.pagination;
    if (first && count !== null) estimate.total += Math.max(0, Math.ceil(Math.min(wanted, count) / PAGE) - 1);
    activities.push(...page.data);
    if (!hasNext || nextCursor === null) break;
    if (activities.length >= wanted) {
      cut = true;
      break;
    }
    after = nextCursor;
  }
  const codes = (await reader.get(pathOf(listRewardCodes.path, { id: customer.id }), listEnvelope(listRewardCodes.answer.schema))).data;
  return { customer, activities, cut, codes };
}

/** The requests an import would send, as `--plan` prints them, and a line with their count. */
export function plan(options: ReadOptions): string[] {
  const lines = PROGRAM_READS.map((path) => `GET ${API_BASE}${path}`);
  if (options.customers === 0) return [...lines, `${lines.length} requests`];
  const count = options.customers;
  const all = count === "all";
  const pageSize = all ? PAGE : Math.min(PAGE, count);
  const activityPages = Math.ceil(options.activities / PAGE);
  lines.push(`GET ${API_BASE}${pathOf(listCustomers.path, {}, { limit: pageSize, hasCount: true })}`);
  if (all || count > PAGE) lines.push(`GET ${API_BASE}${pathOf(listCustomers.path, {}, { limit: PAGE })}&after={nextCursor}   (each further page of ${PAGE})`);
  const each = all ? "each customer" : `each of up to ${count} customers`;
  lines.push(`GET ${API_BASE}${pathOf(listActivities.path, { id: "{id}" }, { limit: Math.min(PAGE, options.activities), hasCount: true }).replace("%7Bid%7D", "{id}")}   (${each}${activityPages > 1 ? `, then up to ${activityPages - 1} further page(s) of ${PAGE}` : ""})`);
  lines.push(`GET ${API_BASE}${listRewardCodes.path}   (${each})`);
  lines.push(`GET ${API_BASE}${getCustomer.path}, its activities and codes   (each customer one of them was merged into, when not among them)`);
  const perCustomer = activityPages + 1;
  if (all) lines.push(`${PROGRAM_READS.length} + ceil(N / ${PAGE}) + ${perCustomer} x N requests for a shop of N customers (3 more for each customer merged into one not read)`);
  else lines.push(`at most ${PROGRAM_READS.length + Math.ceil(count / PAGE) + perCustomer * count} requests (3 more for each customer merged into one not read)`);
  return lines;
}
