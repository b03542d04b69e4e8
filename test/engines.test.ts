/**
 * The Node lines loyalty-sim supports (20.19+, 22.13+, 24+: `engines`), and every package its
 * lockfile installs, runtime and dev alike, admitting the first release of each: so no supported
 * Node prints an `EBADENGINE` warning, installing the package or cloning the repository.
 * (test/package.test.ts checks the install's own output on the Node it runs on; .ci/run runs it
 * on 22 and 24 too.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { satisfies } from "semver";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }> };
/** The first release of each supported line. */
const FIRST = ["20.19.0", "22.13.0", "24.0.0"];

describe("supported Node versions", () => {
  it("engines names the supported lines, and leaves out the others", () => {
    expect(manifest.engines).toEqual({ node: "^20.19.0 || ^22.13.0 || >=24" });
    for (const version of FIRST) expect(satisfies(version, manifest.engines.node), version).toBe(true);
    for (const version of ["18.20.0", "20.18.0", "21.7.0", "22.12.0", "23.11.0"]) expect(satisfies(version, manifest.engines.node), version).toBe(false);
  });

  it.each(FIRST)("every package the lockfile installs supports Node %s", (version) => {
    const refused = Object.entries(lock.packages)
      .filter(([path]) => path !== "")
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range !== undefined && !satisfies(version, range) ? [`${path.replace(/^.*node_modules\//, "")} wants node ${range}`] : [];
      });
    expect(refused).toEqual([]);
  });
});
