/**
 * Follows verify's restore instructions as a person would, against the real target (here the
 * stand-in itself, not the hostile proxy in front of it): each line in one of the forms
 * docs/verify.md lists, sent as it says. A line in no known form fails the test.
 * @module
 */

interface Target {
  origin: string;
  headers: Record<string, string>;
}

async function send(target: Target, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${target.origin}${path}`, {
    method,
    headers: { ...target.headers, ...(body !== undefined && { "Content-Type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return res.json();
}

const data = (answer: unknown) => (answer as { data?: unknown }).data;

/** The restore lines of a run: the report's, or those after "To restore it, send:" in a stopped run's message. */
export function restoreLinesOf(outcome: { restore?: readonly string[]; message?: string }): string[] {
  if (outcome.restore) return [...outcome.restore];
  const text = outcome.message ?? "";
  const at = text.indexOf("To restore it, send:\n");
  if (at < 0) return [];
  return text
    .slice(at)
    .split("\n")
    .slice(1)
    .filter((line) => line.startsWith("  "))
    .map((line) => line.slice(2));
}

/** Sends each line, in order. */
export async function followRestore(lines: readonly string[], target: Target): Promise<void> {
  for (const line of lines) {
    let m: RegExpExecArray | null;
    if ((m = /^POST (\S+)\/reward-codes\/\{each id GET (\S+) lists that was not active before the run \((.*)\)\}\/void$/.exec(line))) {
      if (m[3] === "which were is not known") throw new Error(`a restore line a person cannot follow: ${line}`);
      const before = m[3] === "none was" ? [] : m[3]!.split(", ");
      for (const code of data(await send(target, "GET", m[2]!)) as { id: string }[]) if (!before.includes(code.id)) await send(target, "POST", `${m[1]}/reward-codes/${code.id}/void`);
    } else if ((m = /^GET (\S+), then if its stampBalance is not (-?\d+): POST (\S+) \{"stamps": -?\d+ minus that stampBalance\}$/.exec(line))) {
      const balance = (data(await send(target, "GET", m[1]!)) as { stampBalance: number }).stampBalance;
      const wanted = Number(m[2]);
      if (balance !== wanted) await send(target, "POST", m[3]!, { stamps: wanted - balance });
    } else if ((m = /^POST (\S+)(?: (\{.*\}))?$/.exec(line))) {
      await send(target, "POST", m[1]!, m[2] === undefined ? undefined : JSON.parse(m[2]));
    } else throw new Error(`a restore line in no known form: ${line}`);
  }
}
