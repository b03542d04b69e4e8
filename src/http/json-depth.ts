/**
 * How deep a JSON body may nest. `JSON.parse` takes any depth, but `JSON.stringify` (and any other
 * recursive walk) overflows the stack a few thousand levels down, so a body kept and written out
 * again (a scenario's, the journal's) must be bounded where it is accepted. Both checks are loops,
 * never recursion, so that checking cannot overflow either.
 * @module
 */

/** The deepest nesting of objects and arrays a body may have; `{"a":[1]}` is 2 levels. */
export const MAX_JSON_DEPTH = 64;

/** The detail message of a body (or field) that nests too deeply. */
export const TOO_DEEP = `nests deeper than ${MAX_JSON_DEPTH} levels, the limit for JSON bodies`;

const OPEN_OBJECT = 123; // {
const OPEN_ARRAY = 91; // [
const CLOSE_OBJECT = 125; // }
const CLOSE_ARRAY = 93; // ]
const QUOTE = 34;
const BACKSLASH = 92;

/** Whether JSON text nests deeper than MAX_JSON_DEPTH: brackets counted outside strings. */
export function jsonTextTooDeep(text: string): boolean {
  // Each level takes an opening bracket: a text this short cannot be too deep.
  if (text.length <= MAX_JSON_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
  }
  return false;
}

/**
 * Whether a parsed value nests deeper than MAX_JSON_DEPTH, walked with a stack of its own. A value
 * that contains itself (YAML aliases can make one) is too deep. An object met again through
 * another path (a YAML alias) is walked again only when it is met deeper than before.
 */
export function valueTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seenAt = new Map<object, number>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > MAX_JSON_DEPTH) return true;
    if ((seenAt.get(node) ?? -1) >= depth) continue;
    seenAt.set(node, depth);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
