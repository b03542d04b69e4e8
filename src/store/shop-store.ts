/**
 * One shop's records plus the in-memory indexes that keep every lookup and page O(1) or
 * O(log n) in the number of records: nothing in a request path scans a whole collection. Every
 * change goes through the store, which gives each customer it changes a version: what is derived
 * from a customer (its view, its bytes in the data file) knows it is stale by comparing numbers.
 * @module
 */
import type { ActivityRecord, CodeChange, CodeRecord, CustomerChange, CustomerRecord, ShopData } from "./types.js";
import { CodeIndex } from "./code-index.js";
import { EarnedBy } from "./earned-by.js";
import { EmailIndex } from "./email-index.js";
import { LedgerOrder } from "./ledger-order.js";
import { ListsByPosition } from "./per-customer.js";
import { CustomerVersions } from "./versions.js";

const NO_ACTIVITIES: readonly ActivityRecord[] = Object.freeze([]);

export class ShopStore {
  readonly #customerPos = new Map<string, number>();
  readonly #byEmail = new EmailIndex();
  readonly #ledgers = new ListsByPosition<ActivityRecord>();
  readonly #codes = new CodeIndex();
  readonly #earnedBy = new EarnedBy();
  /** How far each ledger is out of time order (a clock set back): bounds the scans of earn-rule windows. */
  readonly #order = new LedgerOrder();
  /** Bumped by every change: the store's change counter, which versions are taken from. */
  version = 0;
  readonly #versions = new CustomerVersions();
  /** The write in progress, whose changes `rollback` can undo. */
  #open: Checkpoint | undefined;

  constructor(readonly data: ShopData) {
    data.customers.forEach((c, i) => this.#indexCustomer(c, i, 0));
    for (const a of data.activities) this.#indexActivity(a);
    for (const c of data.codes) this.#codes.add(c);
    this.compact();
  }

  /** Re-packs the per-customer lists after a bulk load (see `repack`). */
  compact(): void {
    this.#ledgers.repack();
    this.#codes.compact();
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
    return this.#byEmail.ids(email);
  }

  addCustomer(customer: CustomerRecord): void {
    this.data.customers.push(customer);
    this.#indexCustomer(customer, this.data.customers.length - 1, ++this.version);
  }

  /**
   * The one way a customer changes: the fields given are set (a field given as undefined is
   * removed) and the customer gets a new version.
   */
  updateCustomer(customer: CustomerRecord, change: CustomerChange): void {
    const position = this.#customerPos.get(customer.id)!;
    this.#remember(customer, position);
    const fields = customer as unknown as Record<string, unknown>;
    for (const key in change) {
      const value = change[key as keyof CustomerChange];
      if (value === undefined) delete fields[key];
      else fields[key] = value;
    }
    this.#versions.set(position, ++this.version);
  }

  /** Whether a customer at a position in [from, to) changed after `version` (a value of the change counter). */
  changedSince(from: number, to: number, version: number): boolean {
    return this.#versions.changedSince(from, to, version);
  }

  /**
   * What `make` derives from the customer (its view), kept with the version it was made at and
   * made again only once the customer has changed: one value per customer, of one kind.
   */
  keptView<T>(customer: CustomerRecord, make: (customer: CustomerRecord) => T): T {
    const position = this.#customerPos.get(customer.id)!;
    const kept = this.#versions.kept(position) as T | undefined;
    if (kept !== undefined) return kept;
    const made = make(customer);
    this.#versions.keep(position, made);
    return made;
  }

  #indexCustomer(c: CustomerRecord, pos: number, version: number): void {
    this.#versions.set(pos, version);
    this.#customerPos.set(c.id, pos);
    this.#byEmail.add(c.email, c.id);
  }

  // Activities ------------------------------------------------------------------------------

  /** The customer's ledger, oldest first (pages present it newest first). */
  activitiesOf(customerId: string): readonly ActivityRecord[] {
    const position = this.#customerPos.get(customerId);
    return (position === undefined ? undefined : this.#ledgers.of(position)) ?? NO_ACTIVITIES;
  }

  /**
   * Where an activity sits in its customer's ledger. Activity ids are dense and appended in order,
   * so the record is found by position and its ledger index by binary search: no per-activity map,
   * which would cost more memory than the activities themselves.
   */
  activityPosition(activityId: number): { customerId: string; index: number } | undefined {
    const activity = this.data.activities[activityId - 1];
    if (!activity || activity.id !== activityId) return undefined;
    const ledger = this.activitiesOf(activity.customerId);
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
   * (persistence/state-text.ts) and serialises only new ones.
   */
  appendActivity(record: ActivityRecord): ActivityRecord {
    record.id = this.data.nextActivityId++;
    this.data.activities.push(record);
    this.#indexActivity(record);
    this.version++;
    return record;
  }

  #indexActivity(a: ActivityRecord): void {
    const position = this.#customerPos.get(a.customerId)!;
    this.#order.note(a.customerId, this.#ledgers.of(position)?.at(-1), a.createdAt);
    this.#ledgers.push(position, a);
    if (a.earnRuleId !== undefined) this.#earnedBy.add(a.earnRuleId, position);
  }

  /** Every entry of the customer's ledger is dated at most this long after any entry appended after it (see LedgerOrder). */
  ledgerStepBack(customerId: string): number {
    return this.#order.stepBack(customerId);
  }

  hasEarnedBy(customerId: string, ruleId: number): boolean {
    const position = this.#customerPos.get(customerId);
    return position !== undefined && this.#earnedBy.has(ruleId, position);
  }

  // Reward codes ----------------------------------------------------------------------------

  codesOf(customerId: string): readonly CodeRecord[] {
    return this.#codes.of(customerId);
  }

  code(id: number): CodeRecord | undefined {
    return this.#codes.byId(id);
  }

  /** Whether the shop issued this code string. */
  hasCodeText(text: string): boolean {
    return this.#codes.hasText(text);
  }

  /** The one way a code changes (codes have no version of their own: nothing is derived from one). */
  updateCode(code: CodeRecord, change: CodeChange): void {
    this.#remember(code, -1);
    Object.assign(code, change);
    this.version++;
  }

  addCode(code: Omit<CodeRecord, "id">): CodeRecord {
    const record: CodeRecord = { id: this.data.nextCodeId++, ...code };
    this.data.codes.push(record);
    this.#codes.add(record);
    this.version++;
    return record;
  }

  // Writes that complete or change nothing ------------------------------------------------

  /**
   * Opens a write: from here until `commit` or `rollback`, each record the store changes in place
   * is copied once, before its first change. Collections only grow during a write, so their
   * lengths and counters are all the rest that `rollback` needs.
   */
  checkpoint(): Checkpoint {
    const { data } = this;
    this.#open = {
      version: this.version,
      customerCount: data.customers.length,
      activityCount: data.activities.length,
      codeCount: data.codes.length,
      nextActivityId: data.nextActivityId,
      nextCodeId: data.nextCodeId,
      changed: [],
    };
    return this.#open;
  }

  /** Closes the write: its changes stay. */
  commit(checkpoint: Checkpoint): void {
    if (this.#open === checkpoint) this.#open = undefined;
  }

  /** Puts the records and indexes back as they were at the checkpoint, newest changes first. */
  rollback(checkpoint: Checkpoint): void {
    const { data } = this;
    for (let i = checkpoint.changed.length - 1; i >= 0; i--) {
      const { record, copy, position, version } = checkpoint.changed[i]!;
      restore(record, copy);
      if (position >= 0) this.#versions.restore(position, version);
    }
    while (data.codes.length > checkpoint.codeCount) {
      const code = data.codes.pop()!;
      this.#codes.removeNewest(code);
    }
    while (data.activities.length > checkpoint.activityCount) {
      const activity = data.activities.pop()!;
      const position = this.#customerPos.get(activity.customerId)!;
      this.#ledgers.pop(position);
      const rule = activity.earnRuleId;
      if (rule !== undefined && !this.activitiesOf(activity.customerId).some((a) => a.earnRuleId === rule)) this.#earnedBy.delete(rule, position);
      this.#order.measure(activity.customerId, this.activitiesOf(activity.customerId));
    }
    while (data.customers.length > checkpoint.customerCount) {
      const customer = data.customers.pop()!;
      this.#customerPos.delete(customer.id);
      this.#byEmail.removeNewest(customer.email);
    }
    this.#versions.truncate(checkpoint.customerCount);
    this.#ledgers.truncate(checkpoint.customerCount);
    data.nextActivityId = checkpoint.nextActivityId;
    data.nextCodeId = checkpoint.nextCodeId;
    this.version = checkpoint.version;
    this.commit(checkpoint);
  }

  /** Copies a record before its first change in the open write (a customer with its position and version). */
  #remember(record: CustomerRecord | CodeRecord, position: number): void {
    const open = this.#open;
    if (open === undefined || open.changed.some((c) => c.record === record)) return;
    open.changed.push({ record, copy: { ...record }, position, version: position >= 0 ? this.#versions.of(position) : 0 });
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
  /** Records changed in place, each with a copy of how it was (a record's arrays are replaced, never changed). */
  changed: { record: CustomerRecord | CodeRecord; copy: object; position: number; version: number }[];
}

/** Removes the newest entry of a per-customer list (the one a write appended last). */
/** The record as copied: fields the write added (excludedAt, mergedIntoCustomerId...) go again. */
function restore(record: object, copy: object): void {
  const fields = record as Record<string, unknown>;
  for (const key of Object.keys(fields)) delete fields[key];
  Object.assign(fields, copy);
}
