/** @module The Errors page: error code x operation over the journal, REST answers' codes and GraphQL fields' alike. */
import type { JournalEntry } from "../control/control.schemas.js";
import { OPERATION_IDS } from "../contract/index.js";
import { isError, type Page } from "./context.js";
import { Layout } from "./layout.js";
import { errorsOf } from "./outcome.js";

/** Error code x operation, over the journal. */
export async function errorsPage(page: Page) {
  const answer = await page.get<{ requests: JournalEntry[] }>("/__sim/requests");
  const counts = new Map<string, Map<string, number>>();
  const operations = new Set<string>();
  for (const e of isError(answer.body) ? [] : answer.body.requests) {
    for (const { code, operation: op } of errorsOf(e)) {
      operations.add(op);
      const row = counts.get(code) ?? new Map<string, number>();
      counts.set(code, row.set(op, (row.get(op) ?? 0) + 1));
    }
  }
  const ops = [...operations].sort();
  return page.c.html(
    <Layout page={page} title="Errors" current="/errors">
      {counts.size === 0 ? (
        <p>No error in the journal.</p>
      ) : (
        <table class="errors">
          <thead>
            <tr><th>code</th>{ops.map((op) => <th>{op}</th>)}</tr>
          </thead>
          <tbody>
            {[...counts].sort(([a], [b]) => a.localeCompare(b)).map(([code, row]) => (
              <tr>
                <th>{code}</th>
                {ops.map((op) => <td class="num">{row.get(op) !== undefined ? <a href={page.href("/requests", { q: code.startsWith("fault ") ? undefined : code, operation: OPERATION_IDS.includes(op as never) ? op : undefined })}>{row.get(op)}</a> : ""}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>,
  );
}
