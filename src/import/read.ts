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
import { MAX_CUSTOMER_CODES } from "../engine/limits.js";
import { RECORD_ID } from "../engine/pagination.js";
import { SourceError, type PoliteReader } from "./client.js";
import { ImportError } from "./errors.js";
import { mergeTargets } from "./merges.js";
import { MAX_CUSTOMERS } from "./options.js";
import { readPages } from "./pages.js";

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

  // "all" is held to the most --customers takes: a source listing more is not read whole.
  const wanted = options.customers === "all" ? MAX_CUSTOMERS : options.customers;
  const list = await readPages(reader, {
    what: "listing customers",
    path: ({ first, limit, after }) => pathOf(listCustomers.path, {}, { limit, ...(first && { hasCount: true }), after }),
    schema: pagedEnvelope(listCustomers.answer.schema),
    wanted,
    pageSize: PAGE,
    onCount: (count) => {
      const total = Math.max(0, Math.min(wanted, count ?? 0));
      estimate.total += Math.max(0, Math.ceil(total / PAGE) - 1) + 2 * total;
    },
    unique: (c) => `customer ${c.id}`,
  });
  if (list.more && options.customers === "all") throw new SourceError(`listing customers: the source lists more than ${MAX_CUSTOMERS} customers, the most one import reads; import some with --customers N; nothing was written`);
  const listed = list.items;
  for (const c of listed) checkIds(c);
  // What is left is known now, whatever count the first page claimed.
  estimate.total = reader.sent + 2 * listed.length;

  const targets = await mergeTargets(reader, listed, async (id) => {
    estimate.total += 3;
    const { nextReward: _, ...target } = (await reader.get(pathOf(getCustomer.path, { id }), envelope(getCustomer.answer.schema))).data;
    checkIds(target);
    return target;
  });
  const customers: SourceCustomer[] = [];
  for (const customer of listed) {
    customers.push(await readCustomer(reader, customer, options.activities, estimate));
    progress(`read ${customers.length} of ${listed.length} customers (${reader.sent} requests)`);
  }
  for (const target of targets) {
    customers.push(await readCustomer(reader, target, options.activities, estimate));
    progress(`read customer ${target.id}, whom a customer was merged into (${reader.sent} requests)`);
  }
  return { shop, tiers, earnRules, rewards, beacons, customers, listed: listed.length };
}

/** A fixture holds ids of 1 to 20 digits: a longer one is said now, before its history is asked for. */
function checkIds(c: SourceCustomerRecord): void {
  for (const id of [c.id, c.mergedIntoCustomerId]) {
    if (id !== undefined && !RECORD_ID.test(id)) throw new ImportError(`the source lists a customer id of ${id.length} digits; a fixture holds ids of 1 to 20 digits, so nothing was written`);
  }
}

async function readCustomer(reader: PoliteReader, customer: SourceCustomerRecord, wanted: number, estimate: Estimate): Promise<SourceCustomer> {
  const history = await readPages(reader, {
    what: `listing the activities of customer ${customer.id}`,
    path: ({ first, limit, after }) => pathOf(listActivities.path, { id: customer.id }, { limit, ...(first && { hasCount: true }), after }),
    schema: pagedEnvelope(listActivities.answer.schema),
    wanted,
    pageSize: PAGE,
    onCount: (count) => {
      if (count !== null) estimate.total += Math.max(0, Math.ceil(Math.min(wanted, Math.max(0, count)) / PAGE) - 1);
    },
    unique: (a) => `activity ${a.id}`,
  });
  const codes = (await reader.get(pathOf(listRewardCodes.path, { id: customer.id }), listEnvelope(listRewardCodes.answer.schema))).data;
  // The fixture would refuse it: said now, before the rest of the quota is spent.
  if (codes.length > MAX_CUSTOMER_CODES) {
    throw new ImportError(`customer ${customer.id} holds ${codes.length} reward codes, more than the ${MAX_CUSTOMER_CODES} a customer may hold in a fixture (docs/limits.md): nothing was written; import fewer customers, with --customers N`);
  }
  return { customer, activities: history.items, cut: history.more, codes };
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
