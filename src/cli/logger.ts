/**
 * The request log: one line per request, readable in a terminal (colours on a TTY) or JSON lines.
 * @module
 */
import type { SimulatorConfig } from "../config.js";
import type { RequestLogLine } from "../http/journal/recorder.js";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

export interface Logger {
  /** Whether any request line can be written (a fault or a 5xx is a warning, the rest info). */
  readonly logsRequests: boolean;
  request(line: RequestLogLine): void;
  info(message: string): void;
  debug(message: string, fields?: Record<string, unknown>): void;
  error(message: string, error?: unknown): void;
  /** Written whatever the level, `--quiet` included: what a run must not miss (a data file that cannot be written). */
  alert(message: string): void;
}

/** A GraphQL request's operation and root fields, e.g. ` mutation Checkout [redeemReward: INSUFFICIENT_STAMPS]`. */
function graphqlNote(line: RequestLogLine): string {
  const { graphql } = line;
  if (!graphql) return "";
  const fields = graphql.fields.map((f) => `${f.alias ?? f.field}${f.error === null ? "" : `: ${f.error}`}`).join(", ");
  return ` ${graphql.operationType}${graphql.operationName === null ? "" : ` ${graphql.operationName}`} [${fields}]`;
}

export function createLogger(config: Pick<SimulatorConfig, "logLevel" | "logFormat" | "quiet">, out: NodeJS.WriteStream = process.stdout, err: NodeJS.WriteStream = process.stderr): Logger {
  const threshold = config.quiet ? LEVELS.silent : LEVELS[config.logLevel];
  const json = config.logFormat === "json";
  const colour = !json && out.isTTY === true;
  const paint = (code: number, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const write = (stream: NodeJS.WriteStream, level: keyof typeof LEVELS, fields: Record<string, unknown>, text: string, always = false) => {
    if (LEVELS[level] < threshold && !always) return;
    stream.write(json ? `${JSON.stringify({ time: new Date().toISOString(), level, ...fields })}\n` : `${text}\n`);
  };
  return {
    logsRequests: LEVELS.warn >= threshold,
    request(line) {
      // Server errors and faults are warnings: something a test run should notice.
      const level = line.status === null || line.status >= 500 ? "warn" : "info";
      if (LEVELS[level] < threshold) return; // before any formatting: this runs on every request
      const status = line.status === null ? paint(35, line.fault ?? "fault") : paint(line.status >= 500 ? 31 : line.status >= 400 ? 33 : 32, String(line.status));
      const scenario = line.scenario ? ` ${paint(36, `[scenario ${line.scenario}]`)}` : "";
      write(out, level, { msg: "request", ...line }, `${line.method.padEnd(6)} ${line.path} ${status} ${line.ms.toFixed(1)}ms${graphqlNote(line)}${scenario}`);
    },
    info(message) {
      write(out, "info", { msg: message }, message);
    },
    debug(message, fields = {}) {
      write(out, "debug", { msg: message, ...fields }, `${message} ${Object.entries(fields).map(([k, v]) => `${k}=${String(v)}`).join(" ")}`);
    },
    error(message, error) {
      write(err, "error", { msg: message, error: String(error ?? "") }, error === undefined ? message : `${message} ${String(error)}`);
    },
    alert(message) {
      write(err, "error", { msg: message }, message, true);
    },
  };
}
