/**
 * How deep a JSON body may nest, and how many values it holds. `JSON.parse` takes any depth, but
 * `JSON.stringify` (and any other recursive walk) overflows the stack a few thousand levels down,
 * so a body kept and written out again (a scenario's, the journal's) must be bounded where it is
 * accepted; a body kept holds about 64 bytes of heap a value, whatever its text's size. The checks
 * are loops, never recursion, so that checking cannot overflow either.
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
const COMMA = 44;
const SPACE = 32;
const NEWLINE = 10;
const RETURN = 13;
const TAB = 9;

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
 * How many values JSON text holds (objects, arrays and scalars, at every level), counted up to
 * `max + 1`, where the scan stops: read in one pass, before anything is parsed. Each value but the
 * first follows a comma, or is the first of a container that is not empty.
 */
export function jsonTextValues(text: string, max: number): number {
  let values = 1;
  let inString = false;
  let opened = false;
  for (let i = 0; i < text.length && values <= max; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === SPACE || code === NEWLINE || code === RETURN || code === TAB) continue;
    if (opened) {
      opened = false;
      if (code !== CLOSE_OBJECT && code !== CLOSE_ARRAY) values++;
    }
    if (code === QUOTE) inString = true;
    else if (code === COMMA) values++;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) opened = true;
  }
  return values;
}

/**
 * A parsed value's values (objects, arrays and scalars, at every level), counted up to
 * `maxValues + 1`, and whether it nests deeper than `maxDepth`: walked with a stack of its own,
 * which stops at the first limit broken, so the walk is bounded whatever the value. A value met
 * again through another path (a YAML alias) counts each time, as it is written out each time; one
 * that contains itself is too deep.
 */
export function valueShape(value: unknown, maxValues: number, maxDepth = MAX_JSON_DEPTH): { values: number; tooDeep: boolean } {
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  let values = 1;
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > maxDepth) return { values, tooDeep: true };
    const children = Array.isArray(node) ? node : Object.values(node);
    values += children.length;
    if (values > maxValues) break;
    for (const child of children) {
      nodes.push(child);
      depths.push(depth + 1);
    }
  }
  return { values, tooDeep: false };
}
