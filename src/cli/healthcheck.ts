#!/usr/bin/env node
/**
 * The container's HEALTHCHECK: exit 0 when `/__sim/health` answers ok on the configured port.
 * Plain Node, because slim images have no curl.
 * @module
 */
const port = process.env.LOYALTY_SIM_PORT ?? "4747";
const url = `http://127.0.0.1:${port}/__sim/health`;

fetch(url, { signal: AbortSignal.timeout(2000) })
  .then(async (res) => {
    const body = (await res.json()) as { status?: string };
    process.exit(res.ok && body.status === "ok" ? 0 : 1);
  })
  .catch((error: unknown) => {
    console.error(`healthcheck: ${url}: ${String(error)}`);
    process.exit(1);
  });
