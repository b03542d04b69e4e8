// `npm test`'s first part: the typecheck, the build and the OpenAPI lint, each an npm script of
// its own, run side by side (tsc uses one core: on two, the typecheck and the build together
// take the time of the longer). Each one's output is printed whole once it ends, so nothing
// interleaves; the exit code is the first failure's.
import { spawn } from "node:child_process";

const scripts = process.argv.slice(2);
const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const child = spawn("npm", ["run", script], { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      child.on("error", (error) => resolve({ script, code: 1, output: `${output}${error.message}\n` }));
      child.on("close", (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output }));
    }).then((result) => {
      process.stdout.write(`> ${result.script}: ${result.code === 0 ? "ok" : `failed (exit ${result.code})`}\n${result.output}`);
      return result;
    }),
);
const failed = (await Promise.all(runs)).find((r) => r.code !== 0);
process.exit(failed ? failed.code : 0);
