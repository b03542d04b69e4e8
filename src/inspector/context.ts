/** @module What every inspector page works with: the shop it shows, its links, and the control API in process. */
import type { Context } from "hono";
import type { AppEnv } from "../http/env.js";
import { invalidInput, type RequestLocation } from "../http/errors.js";
import type { Exchange } from "../http/exchange.js";
import { bodyOf } from "../http/request-input.js";
import { isHeaderValue } from "../http/respond.js";
import { UI_PATH, type InspectorDeps } from "./paths.js";

export interface Answer<T> {
  status: number;
  body: T;
}

/** One request to the inspector: its shop (`?shop=`), links that keep it, and control API calls for it. */
export class Page {
  readonly shop: string | undefined;
  /** hono's context of the request. */
  readonly c: Context<AppEnv>;

  constructor(
    readonly exchange: Exchange,
    private readonly deps: InspectorDeps,
  ) {
    const c = (this.c = exchange.c);
    const shop = c.req.query("shop");
    this.shop = shop === undefined || shop === "" ? undefined : namedShop(shop, "query", "shop");
  }

  /** A link to an inspector page (`path` below /__sim/ui) with `params` and the shop. */
  href(path: string, params: Record<string, string | undefined> = {}): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...params, shop: this.shop })) if (value !== undefined && value !== "") query.set(name, value);
    const text = query.toString();
    return `${UI_PATH}${path}${text ? `?${text}` : ""}`;
  }

  /** A control API path with `params` and the shop. */
  controlPath(path: string, params: Record<string, string | undefined> = {}): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...params, shop: this.shop })) if (value !== undefined && value !== "") query.set(name, value);
    const text = query.toString();
    return `${path}${text ? `${path.includes("?") ? "&" : "?"}${text}` : ""}`;
  }

  #apiKey: Promise<string | undefined> | undefined;

  /** The shop's API key: the control API's older routes name a shop by X-Api-Key, not `?shop=` (an id or a key). */
  apiKey(): Promise<string | undefined> {
    const shop = this.shop;
    if (shop === undefined) return Promise.resolve(undefined);
    return (this.#apiKey ??= this.deps
      .control("/__sim/shops")
      .then((res) => res.json() as Promise<{ shops?: { id: string; apiKey: string }[] }>)
      .then((body) => body.shops?.find((s) => s.id === shop || s.apiKey === shop)?.apiKey ?? shop));
  }

  /** `as`: the shop to name by X-Api-Key instead of the page's (null: none, for every shop). */
  async #call(path: string, init: RequestInit = {}, as?: string | null): Promise<Response> {
    const key = as === undefined ? await this.apiKey() : (as ?? undefined);
    const headers = new Headers(init.headers);
    if (key !== undefined) headers.set("X-Api-Key", key);
    return this.deps.control(path, { ...init, headers });
  }

  async get<T>(path: string, params: Record<string, string | undefined> = {}): Promise<Answer<T>> {
    const res = await this.#call(this.controlPath(path, params));
    return { status: res.status, body: (await res.json()) as T };
  }

  /** A control API call with a body (JSON unless `contentType` says otherwise). */
  async send<T>(method: string, path: string, body?: unknown, contentType = "application/json", as?: string | null): Promise<Answer<T>> {
    const init: RequestInit = { method };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    if (body !== undefined) init.headers = { "Content-Type": contentType };
    const res = await this.#call(this.controlPath(path), init, as);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /** The form fields of a POST from a page (htmx sends them URL-encoded). */
  async form(): Promise<URLSearchParams> {
    return new URLSearchParams(bodyOf(this.exchange));
  }
}

/**
 * `value`, a shop's id or API key from the request (`where`, as `name`), which the page's control
 * calls send as X-Api-Key: one no header can carry names no shop, and is refused with 422 here.
 */
export function namedShop(value: string, where: RequestLocation, name: string): string {
  if (!isHeaderValue(value)) throw invalidInput(where, name, "names no shop of this simulator by id or API key (see GET /__sim/shops): it holds a character no HTTP header can carry");
  return value;
}

/** The control API's error envelope. */
export interface ErrorBody {
  success: false;
  error: { message: string; code: string; statusCode: number; details?: { path: string; message: string; in?: string }[] };
}

export function isError(body: unknown): body is ErrorBody {
  return typeof body === "object" && body !== null && (body as { success?: unknown }).success === false;
}
