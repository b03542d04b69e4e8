/**
 * The CLI stops with the program that started it: a test that spawns it and goes away (or kills
 * the npx in between) must not leave it running and holding the port. `npx` itself is in
 * package.test.ts; here the same process trees are made with small parents.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BIN, endlessPipe, ensureBuilt, killAll, portIsFree, startCli, stopCli, within, type StartedCli } from "../support/cli.js";
import { HANG_MS } from "../support/patience.js";

beforeAll(() => ensureBuilt());
afterAll(killAll);

/**
 * The CLI under a parent (a Node process that stays, as `npm exec` does) which runs it directly or
 * through `sh -c`, as npm does; the parent's stdin, which the CLI inherits, is `stdin`. The tree
 * is a process group of its own, killed when the test ends.
 */
async function underParent(ctx: TestContext, how: "shell" | "direct", stdin: "pipe" | "ignore" | "endless", args: string[] = [], env: Record<string, string> = {}) {
  const cli = [process.execPath, BIN, "--port", "0", ...args];
  const spawn = how === "shell" ? `spawn("sh", ["-c", ${JSON.stringify(cli.map((a) => `'${a}'`).join(" "))}]` : `spawn(${JSON.stringify(cli[0])}, ${JSON.stringify(cli.slice(1))}`;
  const code = `const { spawn } = require("node:child_process"); ${spawn}, { stdio: "inherit" }); setInterval(() => {}, 60_000);`;
  const run = await startCli([], env, HANG_MS, { command: [process.execPath, "-e", code], stdin: stdin === "endless" ? endlessPipe(ctx) : stdin });
  ctx.onTestFinished(() => stopCli(run));
  return { ...run, port: Number(new URL(run.origin).port) };
}

/** Resolves once the parent and every process that shares its output (the shell, the CLI) are gone. */
const allGone = (run: StartedCli) => within(run.exited, HANG_MS, "the simulator still runs");

const health = async (origin: string) => (await fetch(`${origin}/__sim/health`)).status;

describe.concurrent("the CLI started by a program (its stdin a pipe) stops with it", () => {
  it("exits 0 when its stdin closes, freeing the port", async (ctx) => {
    const cli = await startCli(["--port", "0"], {}, HANG_MS, { stdin: "pipe" });
    ctx.onTestFinished(() => stopCli(cli));
    expect(await health(cli.origin)).toBe(200);
    cli.child.stdin!.end();
    expect(await allGone(cli)).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toContain("loyalty-sim: stdin closed, shutting down");
    expect(await portIsFree(Number(new URL(cli.origin).port))).toBe(true);
  });

  it("a Node parent killed with SIGKILL: Node closes the stdin it gave, the CLI exits", async (ctx) => {
    const cli = await underParent(ctx, "shell", "pipe");
    expect(await health(cli.origin)).toBe(200);
    cli.child.kill("SIGKILL"); // the parent alone, not its group
    await allGone(cli);
    // The orphaned shell may be seen before the pipe's end.
    expect(cli.stdout()).toMatch(/^loyalty-sim: (stdin closed|the process that started its parent exited), shutting down$/m);
    expect(await portIsFree(cli.port)).toBe(true);
  });

  it.for(["SIGKILL", "SIGTERM"] as const)("its parent killed with %s, stdin still open: the CLI exits", async (signal, ctx) => {
    const cli = await underParent(ctx, "direct", "endless");
    expect(await health(cli.origin)).toBe(200);
    cli.child.kill(signal);
    await allGone(cli);
    expect(cli.stdout()).toContain("loyalty-sim: its parent process exited, shutting down");
    expect(await portIsFree(cli.port)).toBe(true);
  });

  it("run through a shell whose parent is killed with SIGKILL (the shell stays, as under a killed npx), stdin still open: the CLI exits", async (ctx) => {
    const cli = await underParent(ctx, "shell", "endless");
    expect(await health(cli.origin)).toBe(200);
    cli.child.kill("SIGKILL");
    await allGone(cli);
    expect(cli.stdout()).toContain("loyalty-sim: the process that started its parent exited, shutting down");
    expect(await portIsFree(cli.port)).toBe(true);
  });

  it("LOYALTY_SIM_EXIT_WITH_PARENT=true: exits with its parent though stdin is /dev/null", async (ctx) => {
    const cli = await underParent(ctx, "direct", "ignore", [], { LOYALTY_SIM_EXIT_WITH_PARENT: "true" });
    expect(await health(cli.origin)).toBe(200);
    cli.child.kill("SIGKILL");
    await allGone(cli);
    expect(cli.stdout()).toContain("loyalty-sim: its parent process exited, shutting down");
    expect(await portIsFree(cli.port)).toBe(true);
  });
});

describe("the CLI whose output's reader went away with its parent", () => {
  it("still writes its data file before it exits", async (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-parent-data-"));
    ctx.onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const data = join(dir, "state.json");
    // The parent reads the CLI's stdout and passes it on; once it is dead, writing there fails (EPIPE).
    const args = [BIN, "--port", "0", "--data", data, "--flush-ms", "60000"];
    const code = `const { spawn } = require("node:child_process"); const c = spawn(process.execPath, ${JSON.stringify(args)}, { stdio: ["pipe", "pipe", "inherit"] }); c.stdout.pipe(process.stdout); setInterval(() => {}, 60_000);`;
    const cli = await startCli([], {}, HANG_MS, { command: [process.execPath, "-e", code] });
    ctx.onTestFinished(() => stopCli(cli));
    const headers = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" };
    const created = await fetch(`${cli.origin}/__sim/customers`, { method: "POST", headers, body: JSON.stringify({ firstName: "Ada", lastName: "Byron", email: "ada@example.com" }) });
    const { id } = (await created.json()) as { id: string };
    const award = await fetch(`${cli.origin}/rest_api/v1/customers/${id}/stamps/award`, { method: "POST", headers, body: JSON.stringify({ stamps: 7 }) });
    expect(award.status).toBe(200);

    cli.child.kill("SIGKILL");
    await allGone(cli); // the CLI holds our stderr: it is closed once the CLI is gone
    expect(cli.stderr()).toBe("");
    type Saved = { shops: { spec: { id: string }; data: { customers: { id: string; balance: number }[] } }[] };
    const saved = JSON.parse(readFileSync(data, "utf8")) as Saved;
    expect(saved.shops[0]!.data.customers.find((c) => c.id === id)?.balance).toBe(7);
  });
});

describe.concurrent("the CLI meant to outlive its parent keeps running", () => {
  /**
   * Kills the CLI's parent and, at the same moment, the parent of a control CLI whose watch is on
   * (its stdin a pipe that never ends, so only the once-a-second check can stop it); resolves once
   * the control is gone: the checks have run by then, whatever the machine's load.
   */
  async function orphanWithControl(ctx: TestContext, cli: StartedCli) {
    const control = await underParent(ctx, "shell", "endless");
    cli.child.kill("SIGKILL");
    control.child.kill("SIGKILL");
    await allGone(control);
    expect(control.stdout()).toContain("shutting down");
  }

  it("stdin /dev/null (a shell's background job, nohup, Docker, systemd): its parent gone, it answers", async (ctx) => {
    const cli = await underParent(ctx, "shell", "ignore");
    await orphanWithControl(ctx, cli);
    expect(await health(cli.origin)).toBe(200);
    expect(cli.stdout()).not.toContain("shutting down");
  });

  it("--no-exit-with-parent: its stdin closed and its parent gone, it answers", async (ctx) => {
    const cli = await underParent(ctx, "shell", "pipe", ["--no-exit-with-parent"]);
    await orphanWithControl(ctx, cli);
    expect(await health(cli.origin)).toBe(200);
    expect(cli.stdout()).not.toContain("shutting down");
  });
});
