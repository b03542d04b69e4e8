/**
 * How a personal value or a code is found in text, for the pseudonymiser (which replaces it in
 * activity labels) and the leak check (which refuses a file still holding it) alike. Text is
 * compared as words: runs of letters or of digits of its NFKC form, case-folded, invisible format
 * characters (a zero-width space, a soft hyphen) dropped; so an original is found in any case, any
 * Unicode form, with any separator or spacing between its words (`LOYAL_AB12CD` is `LOYAL-AB12CD`,
 * `ADA  LOVELACE` is `Ada Lovelace`), never inside a longer word (Ada is not in Adam).
 * @module
 */

export type Kind = "name" | "email" | "phone number" | "discount code" | "customer id";

/** What a phrase stands for: its kind and the value as read, from which its fake is made. */
export interface Phrase {
  kind: Kind;
  value: string;
  /** A name's field (`first` or `last`); a full name's parts, first name first. */
  role?: "first" | "last";
  parts?: readonly [string, string];
  reversed?: boolean;
}

export interface Hit {
  /** Where in the text's NFKC form (the `text` find returns). */
  start: number;
  end: number;
  phrase: Phrase;
}

// A letter or digit run may hold format characters (U+200B inside a name); they are dropped.
const WORD = /[\p{L}\p{M}](?:[\p{L}\p{M}\p{Cf}]*[\p{L}\p{M}])?|\p{N}(?:[\p{N}\p{Cf}]*\p{N})?/gu;
const FORMAT = /\p{Cf}/gu;
/** Words a key holds at most: a longer phrase is keyed by its first ones, and checked whole on a hit. */
const MAX_KEY_WORDS = 64;

/** A word as compared: format characters dropped, case-folded (ß is ss). */
const fold = (word: string) => word.replace(FORMAT, "").toUpperCase().toLowerCase();

interface Word {
  key: string;
  start: number;
  end: number;
}

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)].map((m) => ({ key: fold(m[0]), start: m.index, end: m.index + m[0].length }));
}

/** The words of a value, as a finder compares them. */
export function wordKeys(value: string): string[] {
  return wordsOf(value.normalize("NFKC")).map((w) => w.key);
}

/** How many letters and digits a value holds: below 2 it is not looked for in text. */
export const signCount = (value: string) => wordKeys(value).join("").length;
export const letterCount = (value: string) => (value.normalize("NFKC").match(/\p{L}/gu) ?? []).length;

interface Entry {
  words: string[];
  phrase: Phrase;
}

/** Every phrase it was given, found in a text as whole words. */
export class Finder {
  readonly #byKey = new Map<string, Entry[]>();
  /** Every key's leading words, so a scan stops as soon as no phrase goes on that way. */
  readonly #prefixes = new Set<string>();
  /** Codes with no letter or digit after their last `-`: found as written, not followed by a letter or digit. */
  readonly #exact: { pattern: RegExp; phrase: Phrase }[] = [];

  /** Adds `phrase` under the words of `text` (its value, or a full name); false when it has none. */
  add(phrase: Phrase, text = phrase.value): boolean {
    const words = wordKeys(text);
    if (words.length === 0) return false;
    if (phrase.kind === "discount code" && !/[\p{L}\p{N}][^-]*$/u.test(text.normalize("NFKC"))) {
      const escaped = text.normalize("NFKC").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      this.#exact.push({ pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "giu"), phrase });
      return true;
    }
    const keyed = words.slice(0, MAX_KEY_WORDS);
    for (let n = 1; n <= keyed.length; n++) this.#prefixes.add(keyed.slice(0, n).join(" "));
    const key = keyed.join(" ");
    const entries = this.#byKey.get(key) ?? [];
    entries.push({ words, phrase });
    this.#byKey.set(key, entries);
    return true;
  }

  /**
   * The phrases of `kinds` (all when absent) in `text`: at each word the longest phrase starting
   * there, then on after it; with `every`, each phrase at each word (no word skipped).
   */
  find(input: string, options: { kinds?: ReadonlySet<Kind>; every?: boolean } = {}): { text: string; hits: Hit[] } {
    const text = input.normalize("NFKC");
    const allowed = (e: Entry) => options.kinds === undefined || options.kinds.has(e.phrase.kind);
    const words = wordsOf(text);
    const hits: Hit[] = [];
    for (let i = 0; i < words.length; ) {
      let best: Hit | undefined;
      let bestWords = 0;
      let key = "";
      for (let n = 1; i + n <= words.length && n <= MAX_KEY_WORDS; n++) {
        key = n === 1 ? words[i]!.key : `${key} ${words[i + n - 1]!.key}`;
        if (!this.#prefixes.has(key)) break;
        for (const entry of this.#byKey.get(key) ?? []) {
          if (!allowed(entry) || !wholeAt(words, i, entry.words)) continue;
          const hit = { start: words[i]!.start, end: words[i + entry.words.length - 1]!.end, phrase: entry.phrase };
          if (options.every) hits.push(hit);
          if (entry.words.length > bestWords) [best, bestWords] = [hit, entry.words.length];
        }
      }
      if (best && !options.every) hits.push(best);
      i += options.every ? 1 : Math.max(1, bestWords);
    }
    for (const { pattern, phrase } of this.#exact) {
      if (options.kinds !== undefined && !options.kinds.has(phrase.kind)) continue;
      for (const m of text.matchAll(pattern)) hits.push({ start: m.index, end: m.index + m[0].length, phrase });
    }
    return { text, hits: hits.sort((a, b) => a.start - b.start || b.end - a.end) };
  }

  /** Whether `text` holds any phrase (of `kinds`). */
  has(text: string, kinds?: ReadonlySet<Kind>): boolean {
    return this.find(text, kinds === undefined ? {} : { kinds }).hits.length > 0;
  }
}

/** Whether `phrase` lies at `words[i]` whole (a phrase longer than its key is checked past it). */
function wholeAt(words: readonly Word[], i: number, phrase: readonly string[]): boolean {
  if (i + phrase.length > words.length) return false;
  for (let k = MAX_KEY_WORDS; k < phrase.length; k++) if (words[i + k]!.key !== phrase[k]) return false;
  return true;
}

/** `text` with each hit replaced by `fake(hit, its text)`; a hit overlapping an earlier one is left out. */
export function replaceHits(text: string, hits: readonly Hit[], fake: (hit: Hit, found: string) => string): string {
  let out = "";
  let at = 0;
  for (const hit of hits) {
    if (hit.start < at) continue;
    out += text.slice(at, hit.start) + fake(hit, text.slice(hit.start, hit.end));
    at = hit.end;
  }
  return out + text.slice(at);
}

const LOCAL = /[\p{L}\p{M}\p{N}._%+'-]/u;
const DOMAIN = /[\p{L}\p{M}\p{N}.-]/u;

/**
 * The email addresses in `text`, Unicode ones included (`josé@exämple.com`): each `@` read outwards,
 * so a long text costs one pass, never a regular expression's backtracking.
 */
export function emailsIn(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    let start = at;
    while (start > 0 && LOCAL.test(text[start - 1]!)) start--;
    let end = at + 1;
    while (end < text.length && DOMAIN.test(text[end]!)) end++;
    const domain = text.slice(at + 1, end).replace(/[.-]+$/, "");
    if (start < at && /^[\p{L}\p{M}\p{N}-]+(?:\.[\p{L}\p{M}\p{N}-]+)*\.[\p{L}\p{M}]{2,}$/u.test(domain)) found.push(text.slice(start, at + 1 + domain.length));
  }
  return found;
}

const PHONE_CANDIDATE = /(?<![\p{L}\p{N}])\+?\(?\d[\d ().-]{5,}\d(?![\p{L}\p{N}])/gu;
/** A date or a time, which phone-like text must not be taken for. */
const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$|^\d{1,2}:\d{2}/;

/** Phone-like strings in the text: at least 7 digits, written with a separator or a leading +. */
export function phoneLike(text: string): string[] {
  return [...text.matchAll(PHONE_CANDIDATE)]
    .map((m) => m[0])
    .filter((s) => (s.match(/\d/g)?.length ?? 0) >= 7 && /[+ ().-]/.test(s) && !DATE_OR_TIME.test(s));
}

/** Digits only: how two phone numbers written differently are compared. */
export const digitsOf = (text: string) => text.normalize("NFKC").replace(/\D/g, "");
