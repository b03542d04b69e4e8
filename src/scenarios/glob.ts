/**
 * Path globs, for scenario rules (`match.path`) and the journal's `?path=` filter: `{param}` is one
 * non-empty segment, `*` any text within a segment, `**` any text across segments; the path may
 * end with one `/` more than the pattern, and an API base in front of the pattern is dropped.
 *
 * A pattern is compiled to a row of steps and run over the path keeping the set of steps it can
 * have reached (an automaton, not a backtracking regex), so a match costs at most
 * (path length + 1) x (steps + 1): `/*a*a*a*a*a*a*b` costs no more than any other pattern of its length.
 * @module
 */
import { belowApiBase } from "../http/base.js";

/** Longest pattern accepted: a bound on the work one request can cost per rule. */
export const MAX_GLOB_LENGTH = 1024;

export interface PathGlob {
  /** Whether `path` (below the API base) matches. */
  test(path: string): boolean;
}

/** Steps other than a given character (which is its own code, 0 or more). */
const ONE = -1; // one character other than `/`
const SEGMENT = -2; // any run of characters other than `/`, possibly empty
const ANYTHING = -3; // any run of characters, possibly empty
const SLASH_OR_NOTHING = -4; // the optional trailing `/`

const SLASH = 47;

/** The pattern as steps: `**` ANYTHING, `*` SEGMENT, `{name}` ONE then SEGMENT, else the character. */
function compile(pattern: string): number[] {
  const relative = belowApiBase(pattern);
  const steps: number[] = [];
  for (let i = 0; i < relative.length; i++) {
    const ch = relative[i]!;
    if (ch === "*" && relative[i + 1] === "*") {
      steps.push(ANYTHING);
      i++;
    } else if (ch === "*") steps.push(SEGMENT);
    else if (ch === "{") {
      // An unclosed `{` takes the rest of the pattern as its name.
      const end = relative.indexOf("}", i);
      steps.push(ONE, SEGMENT);
      i = end === -1 ? relative.length : end;
    } else steps.push(relative.charCodeAt(i));
  }
  steps.push(SLASH_OR_NOTHING);
  return steps;
}

/** Compiles `pattern` (at most MAX_GLOB_LENGTH characters; the schemas that take one check it). */
export function pathGlob(pattern: string): PathGlob {
  const steps = Int32Array.from(compile(pattern));
  const end = steps.length;
  // `at[j]` is 1 when the steps before j can have matched the text read so far.
  let at = new Uint8Array(end + 1);
  let next = new Uint8Array(end + 1);
  /** Steps that may match nothing are passed over. */
  const skipEmpty = (set: Uint8Array) => {
    for (let j = 0; j < end; j++) if (set[j] && steps[j]! < ONE) set[j + 1] = 1;
  };
  return {
    test(path) {
      at.fill(0);
      at[0] = 1;
      skipEmpty(at);
      for (let i = 0; i < path.length; i++) {
        const code = path.charCodeAt(i);
        next.fill(0);
        let alive = false;
        for (let j = 0; j < end; j++) {
          if (!at[j]) continue;
          const step = steps[j]!;
          if (step === ANYTHING || (step === SEGMENT && code !== SLASH)) next[j] = 1;
          else if (step === code || (step === ONE && code !== SLASH) || (step === SLASH_OR_NOTHING && code === SLASH)) next[j + 1] = 1;
          else continue;
          alive = true;
        }
        if (!alive) return false;
        skipEmpty(next);
        [at, next] = [next, at];
      }
      return at[end] === 1;
    },
  };
}
