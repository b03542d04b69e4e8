/**
 * What counts as personal data inside free text (activity labels, and any text of the file): emails,
 * phone-like numbers, names as whole words, codes and ids as whole tokens. The pseudonymiser
 * replaces what these find and the leak check looks for what survived, so both read text alike.
 * @module
 */

export const EMAIL = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** Letters, digits and dashes: how a discount code stands in text. */
export const CODE_TOKEN = /[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/g;
export const DIGIT_TOKEN = /(?<!\d)\d+(?!\d)/g;
const PHONE_CANDIDATE = /(?<![\p{L}\p{N}])\+?\(?\d[\d ().-]{5,}\d(?![\p{L}\p{N}])/gu;
/** A date or a time, which phone-like text must not be taken for. */
const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$|^\d{1,2}:\d{2}/;

/** Phone-like strings in the text: at least 7 digits, written with a separator or a leading +. */
export function phoneLike(text: string): string[] {
  return [...text.matchAll(PHONE_CANDIDATE)]
    .map((m) => m[0])
    .filter((s) => (s.match(/\d/g)?.length ?? 0) >= 7 && /[+ ().-]/.test(s) && !DATE_OR_TIME.test(s));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A pattern matching any of `words` as a whole word (not inside a longer word), longest first,
 * case as written; undefined for none.
 */
export function wholeWords(words: Iterable<string>): RegExp | undefined {
  const list = [...new Set(words)].filter((w) => w.trim().length >= 2).sort((a, b) => b.length - a.length);
  if (list.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${list.map(escape).join("|")})(?![\\p{L}\\p{N}_])`, "gu");
}
