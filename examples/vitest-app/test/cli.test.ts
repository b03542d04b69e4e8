/** The CLI as the project installed it, started from a test with npx and stopped with it. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, expect, it } from "vitest";

const cli = spawn("npx", ["loyalty-sim", "--port", "0", "--quiet"], { stdio: ["pipe", "pipe", "inherit"] });
const url = await new Promise<string>((resolve, reject) => {
  let out = "";
  // Keep reading: the simulator would stall on a full stdout pipe.
  cli.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    const listening = /listening on (\S+)/.exec(out);
    if (listening) resolve(listening[1]!);
  });
  cli.once("exit", (code) => reject(new Error(`loyalty-sim exited with ${code}:\n${out}`)));
});
afterAll(() => void cli.kill()); // npx alone: the simulator sees its stdin close and exits too

it("answers on the port it printed", async () => {
  expect((await fetch(`${url}/__sim/health`)).status).toBe(200);
});

it("stops once its stdin closes: npx and the simulator are gone, the port answers no more", async () => {
  cli.stdin.end();
  await once(cli, "close");
  await expect(fetch(`${url}/__sim/health`)).rejects.toThrow("fetch failed");
});
