/**
 * Headers as the journal keeps them: packed into one text on the request path (`name\nvalue\n`
 * per header, as received), made a record only when the journal is read. A header value never
 * holds a line break: Node's parser and fetch's `Headers` both refuse one.
 * @module
 */

/** What a credential's value is kept as. */
export const REDACTED = "***";

/** Request headers whose values the journal never keeps, in lower case, by length. */
const SECRET_HEADERS: Record<number, string> = { 6: "cookie", 12: "x-api-secret", 13: "authorization", 19: "proxy-authorization" };

/** Compared by length first, so that most names cost no lower-case copy (this runs on every request). */
function isSecret(name: string): boolean {
  const secret = SECRET_HEADERS[name.length];
  return secret !== undefined && (name === secret || name.toLowerCase() === secret);
}

/** Headers given as alternating names and values (Node's `rawHeaders`), credentials redacted. */
export function packHeaderList(list: readonly string[]): string {
  let redacted: string[] | undefined;
  for (let i = 0; i + 1 < list.length; i += 2) if (isSecret(list[i]!)) (redacted ??= list.slice())[i + 1] = REDACTED;
  // One join makes one flat string, where adding the pieces would make a rope to flatten later.
  return list.length === 0 ? "" : `${(redacted ?? list).join("\n")}\n`;
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
