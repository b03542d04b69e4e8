/**
 * Calls no other site's web page may make. A page open in the developer's browser can send
 * requests to the simulator (a form post, a `no-cors` fetch, an image) without reading the answer;
 * for the control API that is enough to reset or reshape it under a running test suite.
 * @module
 */
import { isControlPath } from "../base.js";
import { sendControlError } from "../errors.js";
import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import type { Exchange } from "../exchange.js";
import type { Step } from "../gateway.js";
import { requestHeader } from "../request-input.js";

/** Whether `address` (what the server binds, or a peer's address) is a loopback address. */
export function isLoopbackAddress(address: string): boolean {
  return address === "localhost" || address === "::1" || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(address);
}

/** Host names that always mean this machine: a web page's own DNS name can never be one of them. */
export function isLoopbackName(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Whether the request is this machine's browser (or program) asking for a page of the simulator
 * itself, as a navigation or from its own pages: a loopback `Host` (not a DNS name pointed at
 * 127.0.0.1), a loopback peer, `Sec-Fetch-Site` absent, `none` or `same-origin`, and `Origin`
 * absent or its own. An in-process request has no peer: it comes from the program that runs
 * the simulator, and the rest is checked as for any other.
 */
export function isOwnLoopbackRequest(c: Context<AppEnv>): boolean {
  const own = new URL(c.req.url);
  if (!isLoopbackName(own.hostname)) return false;
  const peer = c.env?.incoming?.socket.remoteAddress;
  if (c.env?.incoming !== undefined && (peer === undefined || !isLoopbackAddress(peer))) return false;
  const site = requestHeader(c, "sec-fetch-site");
  if (site !== undefined && site !== "none" && site !== "same-origin") return false;
  const origin = requestHeader(c, "origin");
  return origin === undefined || hostOf(origin) === own.host;
}

/**
 * Refuses, with 403 FORBIDDEN, a control-API request a browser sends for another site's page: an `Origin` that
 * is not the request's own, or `Sec-Fetch-Site: cross-site` or `same-site` (another port of the same
 * host is the same site, not the same origin). Requests without them (curl, test code, server-side
 * clients) and the simulator's own pages (the docs) pass. With `loopbackHostsOnly` (a server bound
 * to a loopback address), a `Host` that is not a loopback name is refused too: a page whose DNS name
 * an attacker points at 127.0.0.1 (DNS rebinding) is same-origin to the browser, but sends that name.
 */
export function controlCallers(options: { loopbackHostsOnly: boolean }): Step {
  return (exchange) => {
    const { c } = exchange;
    if (!isControlPath(c.req.path)) return undefined;
    const own = new URL(c.req.url);
    if (options.loopbackHostsOnly && !isLoopbackName(own.hostname)) {
      return refuse(exchange, `Host ${own.host} is not a loopback name: while bound to a loopback address, the control API answers localhost, 127.0.0.1 and [::1] only`);
    }
    const site = requestHeader(c, "sec-fetch-site");
    if (site === "cross-site" || site === "same-site") {
      return refuse(exchange, `Sec-Fetch-Site: ${site}: the control API answers no other site's page`);
    }
    const origin = requestHeader(c, "origin");
    // Hosts compared, not schemes: a proxy that ends TLS in front of the simulator changes the scheme only.
    if (origin !== undefined && hostOf(origin) !== own.host) {
      return refuse(exchange, `Origin ${origin} is not this simulator's: the control API answers no other site's page`);
    }
    return undefined;
  };
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    // "null" (a sandboxed or file: page) or nonsense: no origin the request could have.
    return undefined;
  }
}

function refuse(exchange: Exchange, why: string): Response {
  return sendControlError(exchange, "FORBIDDEN", `${why}. Call it from a test process, curl or the docs page at /doc`);
}
