/**
 * One shop's records plus the in-memory indexes that keep every lookup and page O(1) or
 * O(log n) in the number of records: nothing in a request path scans a whole collection.
 * @module
 */
import type { ActivityRecord, CodeRecord, CustomerRecord, ShopData } from "./types.js";

export class ShopStore {
  readonly #customerPos = new Map<string, number>();
  /** Lower-cased email -> the one customer id, or the ids (oldest first) when it is shared. */
  readonly #byEmail = new Map<string, string | string[]>();
  readonly #activitiesOf = new Map<string, ActivityRecord[]>();
  readonly #codesOf = new Map<string, CodeRecord[]>();
  readonly #codeById = new Map<number, CodeRecord>();
  /** Earn rule -> customers it ever awarded: lifetime limits without a ledger scan. One set per
   * rule rather than one per customer: 100k small sets would cost more than the ledger. */
  readonly #earnedBy = new Map<number, Set<string>>();
  /** Bumped on every write: lets persistence know when there is something to flush. */
  version = 0;

  constructor(readonly data: ShopData) {
    data.customers.forEach((c, i) => this.#indexCustomer(c, i));
    for (const a of data.activities) this.#indexActivity(a);
    for (const c of data.codes) this.#indexCode(c);
    this.compact();
  }

  /**
   * Re-packs the per-customer lists after a bulk load. An array grown by push keeps room for
   * about 16 more entries; over 100k short ledgers that slack is more memory than the ledgers.
   */
  compact(): void {
    repack(this.#activitiesOf);
    repack(this.#codesOf);
  }

  get id(): string {
    return this.data.id;
  }

  // Customers -------------------------------------------------------------------------------

  get customerCount(): number {
    return this.data.customers.length;
  }

  customer(id: string): CustomerRecord | undefined {
    const pos = this.#customerPos.get(id);
    return pos === undefined ? undefined : this.data.customers[pos];
  }

  /** Creation order (oldest first) of a customer: the key of customer pagination. */
  customerPosition(id: string): number | undefined {
    return this.#customerPos.get(id);
  }

  customerAt(position: number): CustomerRecord | undefined {
    return this.data.customers[position];
  }

  /** Ids of customers with this email (any case), oldest first. */
  customerIdsByEmail(email: string): readonly string[] {
    const found = this.#byEmail.get(email.toLowerCase());
    return found === undefined ? [] : typeof found === "string" ? [found] : found;
  }

  addCustomer(customer: CustomerRecord): void {
    this.data.customers.push(customer);
    this.#indexCustomer(customer, this.data.customers.length - 1);
    this.version++;
  }

  #indexCustomer(c: CustomerRecord, pos: number): void {
    this.#customerPos.set(c.id, pos);
    const key = c.email.toLowerCase();
    const found = this.#byEmail.get(key);
    if (found === undefined) this.#byEmail.set(key, c.id);
    else if (typeof found === "string") this.#byEmail.set(key, [found, c.id]);
    else found.push(c.id);
  }

  // Activities ------------------------------------------------------------------------------

  /** The customer's ledger, oldest first (pages present it newest first). */
  activitiesOf(customerId: string): readonly ActivityRecord[] {
    return this.#activitiesOf.get(customerId) ?? [];
  }

  /**
   * Where an activity sits in its customer's ledger. Activity ids are dense and appended in order,
   * so the record is found by position and its ledger index by binary search: no per-activity map,
   * which would cost more memory than the activities themselves.
   */
  activityPosition(activityId: number): { customerId: string; index: number } | undefined {
    const activity = this.data.activities[activityId - 1];
    if (!activity || activity.id !== activityId) return undefined;
    const ledger = this.#activitiesOf.get(activity.customerId)!;
    let lo = 0;
    let hi = ledger.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ledger[mid]!.id < activityId) lo = mid + 1;
      else hi = mid;
    }
    return { customerId: activity.customerId, index: lo };
  }

  /**
   * Appends the entry, giving it the next id (whatever `id` it came with). A ledger entry is never
   * changed or removed once appended: `--data` keeps the JSON text of entries already written
   * (store/state-text.ts) and serialises only new ones.
   */
  appendActivity(record: ActivityRecord): ActivityRecord {
    record.id = this.data.nextActivityId++;
    this.data.activities.push(record);
    this.#indexActivity(record);
    this.version++;
    return record;
  }

  #indexActivity(a: ActivityRecord): void {
    let list = this.#activitiesOf.get(a.customerId);
    if (!list) this.#activitiesOf.set(a.customerId, (list = []));
    list.push(a);
    if (a.earnRuleId !== undefined) {
      let customers = this.#earnedBy.get(a.earnRuleId);
      if (!customers) this.#earnedBy.set(a.earnRuleId, (customers = new Set()));
      customers.add(a.customerId);
    }
  }

  hasEarnedBy(customerId: string, ruleId: number): boolean {
    return this.#earnedBy.get(ruleId)?.has(customerId) ?? false;
  }

  // Reward codes ----------------------------------------------------------------------------

  codesOf(customerId: string): readonly CodeRecord[] {
    return this.#codesOf.get(customerId) ?? [];
  }

  code(id: number): CodeRecord | undefined {
    return this.#codeById.get(id);
  }

  addCode(code: Omit<CodeRecord, "id">): CodeRecord {
    const record: CodeRecord = { id: this.data.nextCodeId++, ...code };
    this.data.codes.push(record);
    this.#indexCode(record);
    this.version++;
    return record;
  }

  #indexCode(c: CodeRecord): void {
    let list = this.#codesOf.get(c.customerId);
    if (!list) this.#codesOf.set(c.customerId, (list = []));
    list.push(c);
    this.#codeById.set(c.id, c);
  }

  /** Records a change made in place to a customer or code record. */
  touch(): void {
    this.version++;
  }

  // Checkpoints -----------------------------------------------------------------------------

  /**
   * What a write may change, taken before it runs: the lengths and counters of every collection
   * (writes only append to them) and copies of the records it may change in place: up to two
   * customers (a merge changes both) and a code.
   */
  checkpoint(customerId?: string, otherId?: string, codeId?: number): Checkpoint {
    const customer = customerId === undefined ? undefined : this.customer(customerId);
    const other = otherId === undefined ? undefined : this.customer(otherId);
    const code = codeId === undefined ? undefined : this.#codeById.get(codeId);
    return {
      version: this.version,
      customerCount: this.data.customers.length,
      activityCount: this.data.activities.length,
      codeCount: this.data.codes.length,
      nextActivityId: this.data.nextActivityId,
      nextCodeId: this.data.nextCodeId,
      customer,
      customerCopy: customer && copyCustomer(customer),
      other,
      otherCopy: other && copyCustomer(other),
      code,
      codeCopy: code && { ...code },
    };
  }

  /** Puts the records and indexes back as they were at the checkpoint, newest changes first. */
  rollback(checkpoint: Checkpoint): void {
    const { data } = this;
    while (data.codes.length > checkpoint.codeCount) {
      const code = data.codes.pop()!;
      popFrom(this.#codesOf, code.customerId);
      this.#codeById.delete(code.id);
    }
    while (data.activities.length > checkpoint.activityCount) {
      const activity = data.activities.pop()!;
      popFrom(this.#activitiesOf, activity.customerId);
      const rule = activity.earnRuleId;
      if (rule !== undefined && !this.activitiesOf(activity.customerId).some((a) => a.earnRuleId === rule)) {
        this.#earnedBy.get(rule)?.delete(activity.customerId);
      }
    }
    while (data.customers.length > checkpoint.customerCount) this.#unindexCustomer(data.customers.pop()!);
    if (checkpoint.customer) restoreCustomer(checkpoint.customer, checkpoint.customerCopy!);
    if (checkpoint.other) restoreCustomer(checkpoint.other, checkpoint.otherCopy!);
    if (checkpoint.code) Object.assign(checkpoint.code, checkpoint.codeCopy);
    data.nextActivityId = checkpoint.nextActivityId;
    data.nextCodeId = checkpoint.nextCodeId;
    this.version = checkpoint.version;
  }

  #unindexCustomer(c: CustomerRecord): void {
    this.#customerPos.delete(c.id);
    const key = c.email.toLowerCase();
    const found = this.#byEmail.get(key);
    if (typeof found === "string") this.#byEmail.delete(key);
    else if (found !== undefined) {
      found.pop();
      if (found.length === 1) this.#byEmail.set(key, found[0]!);
    }
  }
}

/** See ShopStore.checkpoint. */
export interface Checkpoint {
  version: number;
  customerCount: number;
  activityCount: number;
  codeCount: number;
  nextActivityId: number;
  nextCodeId: number;
  /** Records that may change in place, each with a copy of how it was. */
  customer: CustomerRecord | undefined;
  customerCopy: CustomerRecord | undefined;
  other: CustomerRecord | undefined;
  otherCopy: CustomerRecord | undefined;
  code: CodeRecord | undefined;
  codeCopy: CodeRecord | undefined;
}

/** Removes the newest entry of a per-customer list (the one a write appended last). */
function popFrom<T>(index: Map<string, T[]>, customerId: string): void {
  const list = index.get(customerId);
  list?.pop();
  if (list?.length === 0) index.delete(customerId);
}

/**
 * A copy that later changes to the record do not reach (its lots are objects changed in place).
 * Every field named, absent ones undefined: one object shape whatever the record's, which keeps
 * the copy cheap (a write takes one, see checkpoint()).
 */
export function copyCustomer(c: CustomerRecord): CustomerRecord {
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    phone: c.phone,
    dateOfBirth: c.dateOfBirth,
    platformState: c.platformState,
    excluded: c.excluded,
    excludedAt: c.excludedAt,
    mergedIntoCustomerId: c.mergedIntoCustomerId,
    vipTierId: c.vipTierId,
    balance: c.balance,
    earned: c.earned,
    lastMovementAt: c.lastMovementAt,
    lots: c.lots?.map((lot) => ({ amount: lot.amount, expiresAt: lot.expiresAt })),
    createdAt: c.createdAt,
  } as CustomerRecord;
}

/** The record as copied: fields the write added (excludedAt, mergedIntoCustomerId...) go again. */
function restoreCustomer(record: CustomerRecord, copy: CustomerRecord): void {
  const fields = record as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) delete fields[key];
  for (const [key, value] of Object.entries(copy)) if (value !== undefined) fields[key] = value;
}

function repack<T>(index: Map<string, T[]>): void {
  for (const [key, list] of index) index.set(key, list.slice());
}
