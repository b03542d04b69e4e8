/**
 * The report of a run, as `--report json:FILE` writes it; the text, JUnit and Markdown reports are
 * made from it.
 * @module
 */
import type { Basis } from "../checks/check.js";
import type { CustomerState } from "../restore.js";
import type { Waiver } from "../waivers.js";

export type Status = "pass" | "fail" | "skip" | "waived";

export interface CheckReport {
  /** Stable across releases. */
  id: string;
  title: string;
  status: Status;
  /** `documented`: production's docs state it; `model`: the docs are silent and the simulator chose. */
  basis: Basis;
  /** What the check expects, with this run's numbers where it has them. */
  expected: string;
  /** What the answers showed: every difference for a failure; null for a skip. */
  observed: string | null;
  /** The request whose answer showed it (`METHOD /path?query`), or null when none stands out. */
  request: string | null;
  /** Why it was skipped, or the waiver that waived it; null otherwise. */
  reason: string | null;
}

export interface Report {
  /** `self`, or the target's origin. */
  target: string;
  startedAt: string;
  mode: "read" | "write";
  /** Requests sent, retries included. */
  requests: number;
  summary: Record<Status, number>;
  checks: CheckReport[];
  /** The write run's customer: its state before and after, and the requests that restore it (none when it is as found). */
  customer: { id: string; before: CustomerState | null; after: CustomerState | null; restore: string[] } | null;
  waivers: { unmatched: Waiver[]; expired: Waiver[] };
  /** Things worth knowing about the run itself (it was slowed by the quota, say). */
  notes: string[];
}

/** 1 when a check failed or a waiver expired (drift), else 0. */
export const exitCodeOf = (report: Report): 0 | 1 => (report.summary.fail > 0 || report.waivers.expired.length > 0 ? 1 : 0);
