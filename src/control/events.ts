/**
 * Live change ticks for the control API's event stream (`GET /__sim/events`). The request path
 * pays nothing: the journal bumps a version number and keeps each shop's newest entry id, and the
 * control calls that change a clock, scenarios or shops say so here. A timer runs only while
 * someone listens; each tick sends every listener what changed for its shop since the last one,
 * one event per kind. A listener whose shop had no new entry costs a comparison of two numbers.
 * @module
 */
import { isoTimestamp } from "../engine/clock.js";
import type { Engine } from "../engine/engine.js";
import type { Journal } from "../http/journal/journal.js";

export type ChangeKind = "clock" | "scenarios" | "shops" | "reset";
export type EventKind = "journal" | ChangeKind;
/** A shop's id, or every shop. */
type Scope = string | "*";

interface Listener {
  shopId: string;
  isDefault: boolean;
  send: (event: EventKind, data: object) => void;
  end: () => void;
  lastId: number;
}

/** How often the listeners hear of changes at most. */
export const TICK_MS = 200;

export class EventHub {
  readonly #listeners = new Set<Listener>();
  readonly #pending = new Map<ChangeKind, Set<Scope>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #journalVersion = -1;

  constructor(
    private readonly journal: Journal,
    private readonly engine: Engine,
    private readonly tickMs = TICK_MS,
  ) {}

  /** A control call changed `kind` for one shop (or every shop). Nothing is kept while no one listens. */
  changed(kind: ChangeKind, shopId: Scope = "*"): void {
    if (this.#listeners.size === 0) return;
    let scopes = this.#pending.get(kind);
    if (!scopes) this.#pending.set(kind, (scopes = new Set()));
    scopes.add(shopId);
  }

  get listeners(): number {
    return this.#listeners.size;
  }

  /** Whether the tick timer runs (only while someone listens). */
  get ticking(): boolean {
    return this.#timer !== undefined;
  }

  /** Listens to a shop's changes; `end` is called once the hub closes. Answers the way to stop listening. */
  subscribe(shopId: string, isDefault: boolean, send: Listener["send"], end: () => void): () => void {
    const listener: Listener = { shopId, isDefault, send, end, lastId: this.journal.newestId(shopId, isDefault) };
    this.#listeners.add(listener);
    send("journal", { lastId: listener.lastId });
    this.#timer ??= setInterval(() => this.#tick(), this.tickMs);
    this.#timer.unref?.();
    return () => this.#remove(listener);
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    for (const listener of [...this.#listeners]) {
      this.#remove(listener);
      listener.end();
    }
  }

  #remove(listener: Listener): void {
    this.#listeners.delete(listener);
    if (this.#listeners.size > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }

  #tick(): void {
    const journalChanged = this.journal.version !== this.#journalVersion;
    this.#journalVersion = this.journal.version;
    const pending = [...this.#pending];
    this.#pending.clear();
    for (const listener of this.#listeners) {
      if (journalChanged) {
        const lastId = this.journal.newestId(listener.shopId, listener.isDefault);
        if (lastId !== listener.lastId) listener.send("journal", { lastId });
        listener.lastId = lastId;
      }
      for (const [kind, scopes] of pending) {
        if (!scopes.has("*") && !scopes.has(listener.shopId)) continue;
        const clock = this.engine.shop(listener.shopId)?.clock;
        listener.send(kind, kind === "clock" && clock ? { now: isoTimestamp(clock.now()), frozen: clock.frozen } : {});
      }
    }
  }
}
