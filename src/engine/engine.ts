/**
 * All shops of one simulator. A shop is created from a program, access settings and a seed; its
 * customers and their history are generated from that seed, so re-creating a shop from its spec
 * gives it back byte for byte (that is how reset works). Each shop has a clock of its own, so a
 * shop that moves its time moves no other's.
 * @module
 */
import type { ShopStore } from "../store/shop-store.js";
import type { Program, ShopAccess, ShopData } from "../store/types.js";
import { SimClock } from "./clock.js";
import { seededRandom } from "./random.js";
import { ShopEngine } from "./shop-engine.js";
import { ShopIds } from "./shop-ids.js";

export interface ShopSpec {
  id: string;
  program: Program;
  access: ShopAccess;
  seed: number;
  customers: number;
  /** Epoch ms at which the generated history ends. */
  referenceDate: number;
  /** Customers a fixture writes out whole, as records: the shop starts with them, before the generated ones. */
  fixtureCustomers?: Pick<ShopData, "customers" | "activities" | "codes">;
}

/** Makes a shop's seeded data from its spec (the fixtures' generator, handed in by whoever builds the engine). */
export interface ShopGenerator {
  generate(spec: ShopSpec): ShopStore;
  /** The same shop, made in slices with the event loop free between them. */
  generateInSlices(spec: ShopSpec): Promise<ShopStore>;
}

export interface EngineOptions {
  generator: ShopGenerator;
  /** Makes each shop's clock when the shop is created (default: real time). */
  newClock?: () => SimClock;
}

export class Engine {
  readonly #generator: ShopGenerator;
  readonly #newClock: () => SimClock;
  readonly #shops = new Map<string, { spec: ShopSpec; shop: ShopEngine }>();
  readonly #byApiKey = new Map<string, ShopEngine>();
  /** Shops being generated (`createShop`): their ids are taken and their customers count already. */
  readonly #pending = new Map<string, ShopSpec>();
  /** Ids of deleted shops, never given again: a request still running for one must not reach a new shop. */
  readonly #retired = new Set<string>();
  /** Every id above, for `nextShopId`. */
  readonly #ids = new ShopIds();
  #defaultId: string | undefined;

  constructor(options: EngineOptions) {
    this.#generator = options.generator;
    this.#newClock = options.newClock ?? (() => new SimClock());
  }

  /** Creates (or re-creates) a shop from its spec, with freshly generated seeded data. */
  addShop(spec: ShopSpec): ShopEngine {
    return this.attachShop(spec, this.#generator.generate(spec));
  }

  /**
   * Creates a shop as `addShop` does, generating its data in slices so that other requests are
   * answered meanwhile. From the call on, its id is taken (`nextShopId`) and it counts in
   * `shopCount` and `customerCount`.
   */
  async createShop(spec: ShopSpec): Promise<ShopEngine> {
    if (this.#shops.has(spec.id) || this.#pending.has(spec.id)) throw new Error(`shop ${spec.id} already exists`);
    this.#pending.set(spec.id, spec);
    this.#ids.take(spec.id);
    try {
      return this.attachShop(spec, await this.#generator.generateInSlices(spec));
    } finally {
      this.#pending.delete(spec.id);
      if (!this.#shops.has(spec.id)) this.#ids.retake([...this.#shops.keys(), ...this.#pending.keys(), ...this.#retired]);
    }
  }

  /**
   * Adds a shop whose data already exists (generated, with its indexes, or loaded from disk). A
   * shop that replaces one of the same id (a reset) keeps its clock.
   */
  attachShop(spec: ShopSpec, store: ShopStore): ShopEngine {
    const existing = this.#byApiKey.get(spec.access.apiKey);
    if (existing && existing.id !== spec.id) {
      throw new Error(`API key ${spec.access.apiKey} is already used by shop ${existing.id}`);
    }
    const clock = this.#shops.get(spec.id)?.shop.clock ?? this.#newClock();
    // Runtime draws (discount codes) continue from a stream of their own, seeded by the shop.
    const shop = new ShopEngine(store, clock, seededRandom(spec.seed * 7919 + 17));
    this.#shops.set(spec.id, { spec, shop });
    this.#ids.take(spec.id);
    this.#byApiKey.set(spec.access.apiKey, shop);
    this.#defaultId ??= spec.id;
    return shop;
  }

  shop(id: string): ShopEngine | undefined {
    return this.#shops.get(id)?.shop;
  }

  shopByApiKey(apiKey: string): ShopEngine | undefined {
    return this.#byApiKey.get(apiKey);
  }

  spec(id: string): ShopSpec | undefined {
    return this.#shops.get(id)?.spec;
  }

  shops(): ShopEngine[] {
    return [...this.#shops.values()].map((s) => s.shop);
  }

  /** Every shop's spec and store, in creation order: what the data file writes. */
  snapshot(): { spec: ShopSpec; store: ShopStore }[] {
    return [...this.#shops.values()].map(({ spec, shop }) => ({ spec, store: shop.store }));
  }

  /** Adds shops saved earlier (the data file's, read at start). */
  restore(shops: readonly { spec: ShopSpec; store: ShopStore }[]): void {
    for (const { spec, store } of shops) this.attachShop(spec, store);
  }

  /** The first shop created: the one control calls act on without an API key, and whose clock times requests of no shop. */
  defaultShop(): ShopEngine {
    const first = this.#defaultId === undefined ? undefined : this.#shops.get(this.#defaultId);
    if (!first) throw new Error("the simulator has no shop");
    return first.shop;
  }

  /** Every shop back to the data its spec generates, its clock back to real time. */
  resetShops(): void {
    for (const { spec } of [...this.#shops.values()]) this.addShop(spec).clock.reset();
  }

  /**
   * As `resetShops`, generating in slices; each shop is replaced once its new data is ready, so the
   * memory of only one shop is held twice at a time. Answers how many shops were reset.
   */
  async resetShopsInSlices(): Promise<number> {
    let count = 0;
    for (const { spec } of [...this.#shops.values()]) if (await this.resetShopInSlices(spec.id)) count++;
    return count;
  }

  /**
   * One shop back to the data its spec generates (in slices) and its clock back to real time.
   * False when the shop is gone, or was deleted while its data was being made.
   */
  async resetShopInSlices(id: string): Promise<boolean> {
    const spec = this.#shops.get(id)?.spec;
    if (!spec) return false;
    const data = await this.#generator.generateInSlices(spec);
    if (this.#shops.get(id)?.spec !== spec) return false;
    this.attachShop(spec, data).clock.reset();
    return true;
  }

  /** Removes a shop and everything the engine holds of it; its id and API key are not given again. */
  deleteShop(id: string): boolean {
    const found = this.#shops.get(id);
    if (!found) return false;
    if (id === this.#defaultId) throw new Error("the default shop cannot be deleted");
    this.#shops.delete(id);
    this.#byApiKey.delete(found.spec.access.apiKey);
    this.#retired.add(id);
    return true;
  }

  /** Shops, those being created included. */
  get shopCount(): number {
    return this.#shops.size + this.#pending.size;
  }

  /** Customers over every shop, those of shops being created included. */
  get customerCount(): number {
    let count = 0;
    for (const { shop } of this.#shops.values()) count += shop.store.customerCount;
    for (const spec of this.#pending.values()) count += spec.customers;
    return count;
  }

  /** Next free shop id ("1" is the default shop); a deleted shop's id is not free. */
  nextShopId(): string {
    return String(this.#ids.firstFree(this.#shops.size + 1));
  }
}
