/**
 * A source standing in for production that turns hostile on demand, for the fuzz of `loyalty-sim
 * import`: it answers the contract's GETs from a shop held as plain answers (customer list paged by
 * cursor, each customer's activities newest first, codes), then spoils the answers a test names: a
 * value nulled or of the wrong type, an object for an array, `[null]` items, `__proto__` keys,
 * deep or endless or huge bodies, redirects, error statuses with odd Retry-After, pages that never
 * end, cursors that come again, merge chains that never end. Its fetch follows a redirect as the
 * standard says unless told `redirect: "manual"`, so a followed redirect shows as a request to
 * another origin (`strayed`).
 * @module
 */

type Json = any;

export const ORIGIN = "https://shop.example";
const STAMP = "2026-11-23T12:00:00+00:00";

export interface HostileCustomer {
  record: Json;
  /** Newest first. */
  activities: Json[];
  codes: Json[];
}

export interface HostileShop {
  program: { shop: Json; tiers: Json[]; earnRules: Json[]; rewards: Json[]; beacons: Json[] };
  customers: HostileCustomer[];
  /** Customers GET /customers/{id} answers but the list does not show (merge targets). */
  hidden: HostileCustomer[];
}

export type Spoil =
  | "null" | "wrongType" | "objectForArray" | "nullItems" | "protoKeys" | "deep" | "notJson" | "empty"
  | "redirect" | "downgrade" | "status" | "declaredHuge" | "endless" | "unreachable" | "errorCode";

export type Paging = "normal" | "emptyForever" | "sameCursor" | "sameItemsForever" | "moreThanAsked" | "hugeCount" | "longCursor";

export type Merging = "none" | "cycle" | "self" | "endlessChain" | "otherId";

export interface Hostility {
  /** The n-th request (1-based) answered spoiled, and how; `pick` chooses among the answer's places. */
  spoils: { at: number; how: Spoil; pick: number }[];
  customerPages: Paging;
  activityPages: Paging;
  merging: Merging;
  retryAfter: string | undefined;
}

const json = (body: Json, status = 200, headers: Record<string, string> = {}) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
const list = (data: Json[]) => ({ success: true, data, meta: { count: data.length }, timestamp: STAMP });
const one = (data: Json) => ({ success: true, data, timestamp: STAMP });
const page = (data: Json[], nextCursor: string | null, count: number | null) => ({
  success: true,
  data,
  meta: { pagination: { hasNext: nextCursor !== null, hasPrevious: false, nextCursor, previousCursor: null, count } },
  timestamp: STAMP,
});

/** A page of `items` from `after` (`c<offset>`), as the paging mode has it. */
function paged(items: Json[], query: URLSearchParams, mode: Paging, sent: number): Json {
  const limit = Number(query.get("limit") ?? 50);
  const from = Number((query.get("after") ?? "c0").slice(1)) || 0;
  const count = query.get("hasCount") === "true" ? (mode === "hugeCount" ? 1e12 : items.length) : null;
  const slice = items.slice(from, from + limit);
  const next = from + limit < items.length ? `c${from + limit}` : null;
  switch (mode) {
    case "emptyForever":
      return page([], `c${sent}`, count);
    case "sameCursor":
      return page(slice, "c0", count);
    case "sameItemsForever":
      return page(items.slice(0, 1), `c${sent}`, count);
    case "moreThanAsked":
      return page([...items, ...items], next, count);
    case "longCursor":
      return page(slice, `c${"9".repeat(5_000)}`, count);
    default:
      return page(slice, next, count);
  }
}

/** A customer merged into the next id, for ever. */
const chained = (id: number, like: Json) => ({ ...like, id: String(id), mergedIntoCustomerId: String(id + 1) });

function answer(shop: HostileShop, hostility: Hostility, url: URL, sent: number): Json {
  const path = url.pathname.replace(/^\/rest_api\/v1/, "");
  const { program } = shop;
  const everyone = [...shop.customers, ...shop.hidden];
  if (path === "/shop") return one(program.shop);
  if (path === "/tiers") return list(program.tiers);
  if (path === "/earn-rules") return list(program.earnRules);
  if (path === "/rewards") return list(program.rewards);
  if (path === "/beacons") return list(program.beacons);
  if (path === "/customers") return paged(shop.customers.map((c) => c.record), url.searchParams, hostility.customerPages, sent);
  const m = /^\/customers\/(\d+)(\/activities|\/reward-codes)?$/.exec(path);
  const found = m && everyone.find((c) => c.record.id === m[1]);
  if (m && m[2] === "/activities") return paged(found?.activities ?? [], url.searchParams, hostility.activityPages, sent);
  if (m && m[2] === "/reward-codes") return list(found?.codes ?? []);
  if (m && found) return one(hostility.merging === "otherId" ? { ...found.record, id: `${found.record.id}1` } : found.record);
  if (m && hostility.merging === "endlessChain") return one(chained(Number(m[1]), shop.customers[0]?.record ?? {}));
  return { status: 404, body: { success: false, error: { code: "NOT_FOUND", message: "not found", statusCode: 404 }, timestamp: STAMP } };
}

/** The places of a JSON value, depth first: containers and leaves. */
function places(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) places(v, [...at, Array.isArray(value) ? Number(k) : k], out);
  return out;
}

function setAt(root: Json, at: (string | number)[], make: (old: Json) => Json): Json {
  if (at.length === 0) return make(root);
  let node = root;
  for (const key of at.slice(0, -1)) node = node[key];
  node[at.at(-1)!] = make(node[at.at(-1)!]);
  return root;
}

const wrongType = (old: Json) => (typeof old === "string" ? 7 : typeof old === "number" ? "7" : typeof old === "boolean" ? "true" : Array.isArray(old) ? "[]" : 0);

/** The answer spoiled `how`, at the place `pick` chooses. */
function spoiled(body: Json, how: Spoil, pick: number, hostility: Hostility, onPull: (bytes: number) => void): Response {
  const all = places(body);
  const at = all[pick % all.length]!;
  const arrays = all.filter((p) => Array.isArray(p.reduce((n: Json, k) => n[k], body)));
  const objects = all.filter((p) => { const v = p.reduce((n: Json, k) => n[k], body); return v !== null && typeof v === "object" && !Array.isArray(v); });
  switch (how) {
    case "null": return json(setAt(body, at, () => null));
    case "wrongType": return json(setAt(body, at, wrongType));
    case "objectForArray": return json(arrays.length ? setAt(body, arrays[pick % arrays.length]!, () => ({ "0": {} })) : body);
    case "nullItems": return json(arrays.length ? setAt(body, arrays[pick % arrays.length]!, () => [null]) : body);
    case "protoKeys": {
      const text = JSON.stringify(objects.length ? setAt(body, objects[pick % objects.length]!, (o) => ({ ...o, PROTO_HERE: 1 })) : body);
      return json(text.replace('"PROTO_HERE":1', '"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}'));
    }
    case "deep": return json(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    case "notJson": return new Response("<html>503 Service Unavailable</html>", { status: 200 });
    case "empty": return new Response("", { status: 200 });
    case "redirect": return new Response(null, { status: [301, 302, 303, 307, 308][pick % 5]!, headers: { Location: `http://elsewhere.example:8080/steal?k=${pick}` } });
    case "downgrade": return new Response(null, { status: 301, headers: { Location: "http://shop.example/rest_api/v1/shop" } });
    case "status": {
      const status = [401, 403, 404, 429, 500, 503][pick % 6]!;
      return json({ success: false, error: { code: "SOME_ERROR", message: "no", statusCode: status }, timestamp: STAMP }, status, hostility.retryAfter === undefined ? {} : { "Retry-After": hostility.retryAfter });
    }
    case "errorCode": return json({ success: false, error: { code: "\u001b[2J\u202eEVIL\nloyalty-sim import: wrote", message: "x", statusCode: 500 }, timestamp: STAMP }, 500);
    case "declaredHuge": return new Response("{}", { status: 200, headers: { "Content-Length": String(1e12) } });
    case "endless": {
      const chunk = new Uint8Array(256 * 1024).fill(0x20);
      return new Response(new ReadableStream({ pull: (c) => (onPull(chunk.length), c.enqueue(chunk)) }), { status: 200 });
    }
    case "unreachable": throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
  }
}

/** The source's fetch; what it saw: requests, requests gone elsewhere, bytes an endless body gave. */
export function hostileFetch(shop: HostileShop, hostility: Hostility, maxRequests: number) {
  const seen = { requests: 0, strayed: [] as string[], pulled: 0, overrun: false };
  const send: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    if (url.origin !== ORIGIN) {
      seen.strayed.push(url.origin);
      return json("{}");
    }
    if (++seen.requests > maxRequests) {
      seen.overrun = true;
      throw new Error(`more than ${maxRequests} requests`);
    }
    const spoil = hostility.spoils.find((s) => s.at === seen.requests);
    const body = answer(shop, hostility, url, seen.requests);
    let res: Response;
    if (spoil) res = spoiled(structuredClone(body.status ? body.body : body), spoil.how, spoil.pick, hostility, (n) => (seen.pulled += n));
    else res = body.status ? json(body.body, body.status) : json(body);
    // The standard's default: follow a redirect, headers and all.
    if (res.status >= 300 && res.status < 400 && init?.redirect !== "manual") return send(new URL(res.headers.get("location")!, url).href, init);
    return res;
  };
  return { fetch: send, seen };
}
