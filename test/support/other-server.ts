/**
 * A server on a port that is no loyalty-sim (another app, a proxy's login page, a hostile one),
 * answering as the test says, and the requests it saw: what `coverage --url` and `scenarios add`
 * must refuse to take for the control API.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

export async function otherServer(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { method: string; url: string }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url! });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A JSON answer of `status`. */
export const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
