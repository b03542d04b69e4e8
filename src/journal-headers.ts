/**
 * Headers as the journal keeps them: packed into one text on the request path (`name\nvalue\n`
 * per header, as received), made a record only when the journal is read. A header value never
 * holds a line break: Node's parser and fetch's `Headers` both refuse one.
 * @module
 */

/** What a credential's value is kept as. */
export const REDACTED = "***";

/** Request headers whose values the journal never keeps. */
const SECRET_HEADERS = new Set(["x-api-secret", "authorization", "proxy-authorization", "cookie"]);

/** Checked by length first: most names are none of these, and then no lower-case copy is made. */
function isSecret(name: string): boolean {
  const n = name.length;
  return (n === 6 || n === 12 || n === 13 || n === 19) && SECRET_HEADERS.has(name.toLowerCase());
}

/** Headers given as alternating names and values (Node's `rawHeaders`), credentials redacted. */
export function packHeaderList(list: readonly string[]): string {
  let text = "";
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i]!;
    text += `${name}\n${isSecret(name) ? REDACTED : list[i + 1]!}\n`;
  }
  return text;
}

/** Headers given as an object (those the app gathered for its response). */
export function packHeaderRecord(headers: Record<string, string>): string {
  let text = "";
  for (const name in headers) text += `${name}\n${headers[name]!}\n`;
  return text;
}

/** A fetch `Headers` (names already in lower case, repeated ones joined), credentials redacted. */
export function packFetchHeaders(headers: Headers): string {
  let text = "";
  headers.forEach((value, name) => (text += `${name}\n${isSecret(name) ? REDACTED : value}\n`));
  return text;
}

/** Packed headers as a record: names in lower case (as fetch and Node show them), repeated ones joined with ", ". */
export function unpackHeaders(text: string): Record<string, string> {
  const parts = text.split("\n");
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const name = parts[i]!.toLowerCase();
    const value = Object.hasOwn(out, name) ? `${out[name]!}, ${parts[i + 1]!}` : parts[i + 1]!;
    // Defined, not assigned: a header may be named `__proto__`.
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
