/**
 * The README's table of the operations, written by `npm run documents` between its two markers from
 * the contract: an operation added there gets its row without a hand edit.
 */
import { OPERATION_IDS, operationOf } from "../../src/contract/index.js";

export const TABLE_START = "<!-- operations: written by npm run documents from src/contract -->";
export const TABLE_END = "<!-- /operations -->";

/** The first sentence of a description, for the table's last column. */
const firstSentence = (text: string) => text.replace(/^(.*?\.)(\s.*)?$/s, "$1").replace(/\.$/, "");

export function operationsTable(): string {
  const rows = OPERATION_IDS.map((id) => {
    const op = operationOf(id)!;
    const field = op.graphql === null ? "none" : `\`${op.graphql.field}\``;
    return `| \`${id}\` | \`${op.method.toUpperCase()} ${op.path}\` | ${field} | ${firstSentence(op.description).replaceAll("|", "\\|")} |`;
  });
  return ["| operation | method and path | GraphQL | does |", "|---|---|---|---|", ...rows].join("\n");
}

/** `readme` with the text between the markers replaced by the table. */
export function withOperationsTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md must hold the markers ${TABLE_START} and ${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${operationsTable()}\n${readme.slice(end)}`;
}
