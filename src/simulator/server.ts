/**
 * The simulator on a real port: `startSimulator(options)` for test suites, and what the CLI runs.
 * @module
 */
import type { AddressInfo } from "node:net";
import { serve as serveNode, type ServerType } from "@hono/node-server";
import { parseConfig, type SimulatorConfig, type SimulatorOptions } from "../config.js";
import { createControlClient, type ControlClient } from "./in-process.js";
import { buildSimulator, type BuildOptions, type BuiltSimulator } from "./simulator.js";
import { nodeServerOptions } from "../http/node-server.js";
import { API_BASE, GRAPHQL_PATH } from "../http/base.js";
import { isLoopbackAddress } from "../http/gates/index.js";

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `http://127.0.0.1:PORT/rest_api/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT/graphql`: the GraphQL API (POST), GraphiQL in a browser */
  graphqlUrl: string;
  port: number;
  apiKey: string;
  apiSecret: string;
  control: ControlClient;
  engine: BuiltSimulator["engine"];
  /** Every shop back to its seeded state (as `POST /__sim/reset`). */
  reset(): Promise<void>;
  /** Stops listening, ends open connections and flushes the data file. */
  close(): Promise<void>;
}

/** Builds the simulator and listens on the configured port (an ephemeral one by default here). */
export function listen(config: SimulatorConfig, options: BuildOptions = {}): Promise<RunningSimulator & { built: BuiltSimulator; server: ServerType }> {
  // In-process simulators bind nothing, so only here is there an address to protect.
  return serve(buildSimulator(config, { ...options, loopbackHostsOnly: isLoopbackAddress(config.host) }), config);
}

/** Listens with a built simulator on the configured port. */
export async function serve(built: BuiltSimulator, config: SimulatorConfig): Promise<RunningSimulator & { built: BuiltSimulator; server: ServerType }> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serveNode(
      {
        fetch: built.app.fetch,
        port: config.port,
        hostname: config.host,
        ...nodeServerOptions,
      },
      () => resolve(s),
    );
    s.once("error", reject);
  }).catch((error: unknown) => {
    // Not listening (the port is taken, say): the data file is free for another start.
    built.dataFile?.release();
    throw error;
  });
  built.dataFile?.start();
  const port = (server.address() as AddressInfo).port;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const control = createControlClient(fetch, url);
  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}${API_BASE}`,
    graphqlUrl: `${url}${GRAPHQL_PATH}`,
    port,
    apiKey: built.shop.access.apiKey,
    apiSecret: built.shop.access.apiSecret,
    control,
    engine: built.engine,
    built,
    server,
    reset: async () => void (await control.reset()),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        // Event streams never end by themselves: ended first, so close() does not wait on them.
        built.events.close();
        server.close(() => resolve());
        // Keep-alive connections (and requests held by a timeout fault) would hold close() open.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }).then(() => built.dataFile?.stop())),
  };
}

/**
 * @example
 * const sim = await startSimulator({ customers: 10 });
 * await fetch(`${sim.baseUrl}/shop`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } });
 * await sim.close();
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const { built: _built, server: _server, ...running } = await listen(parseConfig({ port: 0, logLevel: "silent", ...options }));
  return running;
}
