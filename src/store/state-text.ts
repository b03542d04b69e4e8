/**
 * The `--data` file's bytes, written again at every flush, as a list of UTF-8 chunks that are
 * kept between flushes where nothing in them changed:
 * - a shop's ledger is most of the file (500k activities are about 70 MB of JSON) and only ever
 *   grows at its end: entries are appended and never changed (see ShopStore.appendActivity). The
 *   bytes of the entries already written are kept and only new entries are serialised;
 * - customers are kept in groups of GROUP_SIZE, each group's bytes with a copy of its records as
 *   they were serialised; a group is serialised again only when one of its records differs from
 *   its copy (compared field by field) or is another record;
 * - everything else (the program, codes, counters) is small and serialised afresh.
 * Serialising and encoding the whole state each time held the event loop for about 0.6 s per flush
 * at 100k customers; with a few customers changed between flushes it is now a few tens of ms.
 * @module
 */
import type { ActivityRecord, CustomerRecord } from "./types.js";
import type { SavedState } from "./data-file.js";
import { copyCustomer } from "./shop-store.js";

/** Customers per group: small enough that a change re-serialises little, large enough that a flush writes few chunks. */
export const GROUP_SIZE = 1000;
/** New ledger bytes are merged into one chunk once they reach this size, so a long run writes few chunks. */
const SEAL_BYTES = 4 * 1024 * 1024;
const COMMA = Buffer.from(",");

/** What a group of customers was last serialised from, and its bytes. */
interface CustomerGroup {
  records: CustomerRecord[];
  copies: CustomerRecord[];
  bytes: Buffer;
}

/** A ledger's first `count` entries as bytes: large sealed chunks, then the newest ones. */
interface LedgerBytes {
  count: number;
  sealed: Buffer[];
  recent: Buffer[];
  recentBytes: number;
}

export class StateText {
  /** Keyed by the arrays themselves: a reset or a new shop brings new arrays, and starts over. */
  readonly #groups = new WeakMap<readonly CustomerRecord[], CustomerGroup[]>();
  readonly #ledgers = new WeakMap<readonly ActivityRecord[], LedgerBytes>();

  /**
   * The document `JSON.stringify(state)` would write (with each shop's `customers` and
   * `activities` moved to the end of its `data`), as UTF-8 chunks to be written in order.
   */
  chunks(state: SavedState): Buffer[] {
    const { shops, ...top } = state;
    const out: Buffer[] = [Buffer.from(`${openObject(JSON.stringify(top))}"shops":[`)];
    shops.forEach(({ spec, data }, i) => {
      const { customers, activities, ...rest } = data;
      out.push(Buffer.from(`${i > 0 ? "," : ""}{"spec":${JSON.stringify(spec)},"data":${openObject(JSON.stringify(rest))}"customers":[`));
      this.#customers(customers, out);
      out.push(Buffer.from('],"activities":['));
      this.#ledger(activities, out);
      out.push(Buffer.from("]}}"));
    });
    out.push(Buffer.from("]}"));
    return out;
  }

  #customers(customers: readonly CustomerRecord[], out: Buffer[]): void {
    let groups = this.#groups.get(customers);
    if (groups === undefined) this.#groups.set(customers, (groups = []));
    const count = Math.ceil(customers.length / GROUP_SIZE);
    groups.length = Math.min(groups.length, count);
    for (let g = 0; g < count; g++) {
      const records = customers.slice(g * GROUP_SIZE, (g + 1) * GROUP_SIZE);
      let group = groups[g];
      if (group === undefined || !unchanged(group, records)) {
        group = {
          records,
          copies: records.map(copyCustomer),
          bytes: Buffer.from(JSON.stringify(records).slice(1, -1)),
        };
        groups[g] = group;
      }
      if (g > 0) out.push(COMMA);
      out.push(group.bytes);
    }
  }

  #ledger(activities: readonly ActivityRecord[], out: Buffer[]): void {
    let kept = this.#ledgers.get(activities);
    if (kept === undefined || kept.count > activities.length) {
      kept = { count: 0, sealed: [], recent: [], recentBytes: 0 };
      this.#ledgers.set(activities, kept);
    }
    if (kept.count < activities.length) {
      const added = JSON.stringify(activities.slice(kept.count)).slice(1, -1);
      const bytes = Buffer.from(kept.count === 0 ? added : `,${added}`);
      kept.recent.push(bytes);
      kept.recentBytes += bytes.length;
      kept.count = activities.length;
      if (kept.recentBytes >= SEAL_BYTES) {
        kept.sealed.push(Buffer.concat(kept.recent));
        kept.recent = [];
        kept.recentBytes = 0;
      }
    }
    out.push(...kept.sealed, ...kept.recent);
  }
}

/** `{...}` left open for more members: `{"a":1` + `,` or, for `{}`, just `{`. */
function openObject(json: string): string {
  return json.length > 2 ? `${json.slice(0, -1)},` : "{";
}

/** Whether `records` are the group's records, each still as it was copied. */
function unchanged(group: CustomerGroup, records: readonly CustomerRecord[]): boolean {
  if (records.length !== group.records.length) return false;
  for (let i = 0; i < records.length; i++) {
    if (records[i] !== group.records[i] || !sameCustomerRecord(records[i]!, group.copies[i]!)) return false;
  }
  return true;
}

/**
 * Every field of CustomerRecord, compared one by one (a loop over names would make each read a
 * megamorphic lookup, 100k customers per flush). The test lists the fields as a
 * `Required<CustomerRecord>`, so a new field cannot be left out unnoticed.
 */
export function sameCustomerRecord(a: CustomerRecord, b: CustomerRecord): boolean {
  return (
    a.id === b.id &&
    a.firstName === b.firstName &&
    a.lastName === b.lastName &&
    a.email === b.email &&
    a.phone === b.phone &&
    a.dateOfBirth === b.dateOfBirth &&
    a.platformState === b.platformState &&
    a.excluded === b.excluded &&
    a.excludedAt === b.excludedAt &&
    a.mergedIntoCustomerId === b.mergedIntoCustomerId &&
    a.vipTierId === b.vipTierId &&
    a.balance === b.balance &&
    a.earned === b.earned &&
    a.lastMovementAt === b.lastMovementAt &&
    a.createdAt === b.createdAt &&
    sameLots(a.lots, b.lots)
  );
}

function sameLots(a: CustomerRecord["lots"] | undefined, b: CustomerRecord["lots"] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.amount !== b[i]!.amount || a[i]!.expiresAt !== b[i]!.expiresAt) return false;
  return true;
}
