#!/usr/bin/env node
/**
 * The `loyalty-sim` command: the only place that reads process.argv, process.env and signals.
 * @module
 */
import { serve } from "@hono/node-server";
import { ConfigError } from "../config.js";
import { FixtureError } from "../fixtures/load.js";
import { buildSimulator } from "../simulator.js";
import { API_BASE } from "../http/router.js";
import { HELP, parseCli } from "./args.js";
import { VERSION as version } from "../version.js";


function main(): void {
  let command;
  try {
    command = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof ConfigError || (error instanceof TypeError && "code" in error)) {
      console.error(`${error.message}\nRun loyalty-sim --help for the options.`);
      process.exit(2);
    }
    throw error;
  }
  if (command.kind === "help") return void process.stdout.write(HELP);
  if (command.kind === "version") return void console.log(version);

  const { config } = command;
  let simulator;
  try {
    simulator = buildSimulator(config, { onBug: (error) => console.error("loyalty-sim: internal error:", error) });
  } catch (error) {
    if (error instanceof FixtureError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const { app, shop } = simulator;
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const host = config.host.includes(":") ? `[${config.host}]` : config.host;
    const origin = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${info.port}`;
    console.log(`loyalty-sim ${version} listening on ${origin}`);
    console.log(`  API:         ${origin}${API_BASE}`);
    console.log(`  Docs:        ${origin}/doc`);
    console.log(`  OpenAPI:     ${origin}/openapi.json`);
    console.log(`  Credentials: X-Api-Key: ${shop.access.apiKey}  X-Api-Secret: ${shop.access.apiSecret}`);
    console.log(`  Seed:        ${config.seed} (${config.customers} customers)`);
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    console.error(`loyalty-sim: cannot listen on ${config.host}:${config.port}: ${error.message}`);
    process.exit(1);
  });
  const stop = (signal: string) => {
    console.log(`loyalty-sim: ${signal}, shutting down`);
    server.close(() => process.exit(0));
    // Keep-alive connections would hold close() open; nothing is lost by ending them.
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main();
