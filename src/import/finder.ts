/**
 * How a personal value or a code is found in text, for the pseudonymiser (which replaces it in
 * activity labels) and the leak check (which refuses a file still holding it) alike. Text is
 * compared as words: runs of letters or of digits of its NFKC form, case-folded, a Latin letter's
 * accents and invisible format characters (a zero-width space, a soft hyphen) dropped; so an
 * original is found in any case, any Unicode form, with any separator or spacing between its words
 * (`LOYAL_AB12CD` is `LOYAL-AB12CD`, `ADA  LOVELACE` is `Ada Lovelace`, `Zoe` is `Zoë`), never
 * inside a longer word (Ada is not in Adam); a code also with its words run together.
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

const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;
/** A word as compared: format characters and a Latin letter's accents dropped (Zoë is Zoe), case-folded (ß is ss). */
const fold = (word: string) => word.normalize("NFD").replace(LATIN_MARKS, "$1").replace(FORMAT, "").toUpperCase().toLowerCase();

interface Word {
  key: string;
  start: number;
  end: number;
}

function wordsOf(text: string): Word[] {
  // Most text is ASCII, where lower case is the whole fold: a few times faster on a large answer.
  const key = /^[\x00-\x7f]*$/.test(text) ? (word: string) => word.toLowerCase() : fold;
  const words: Word[] = [];
  for (const m of text.matchAll(WORD)) words.push({ key: key(m[0]), start: m.index, end: m.index + m[0].length });
  return words;
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
  /** A code found only as written (in lower case here): checked where its words are, from `lead` characters before them. */
  exact?: { written: string; lead: number };
}

/** Every phrase it was given, found in a text as whole words. */
export class Finder {
  readonly #byKey = new Map<string, Entry[]>();
  /** Every key's leading words, so a scan stops as soon as no phrase goes on that way. */
  readonly #prefixes = new Set<string>();
  /** Codes of several words by their words run together: `LOYALAB12CD` is `LOYAL-AB12CD` too. */
  readonly #squeezed = new Map<string, Entry>();

  /** Phrases kept: each once, however many times it was added. */
  get size(): number {
    let n = 0;
    for (const entries of this.#byKey.values()) n += entries.length;
    return n;
  }

  /**
   * Adds `phrase` under the words of `text` (its value, or a full name); false when it has none.
   * A code with no letter or digit after its last `-` (`LOYAL-`, only its prefix) is found only as
   * written, not followed by a letter or digit: by its words alone it would be in every code.
   */
  add(phrase: Phrase, text = phrase.value): boolean {
    const words = wordKeys(text);
    if (words.length === 0) return false;
    const written = text.normalize("NFKC");
    let exact: Entry["exact"];
    if (phrase.kind === "discount code" && !/[\p{L}\p{N}][^-]*$/u.test(written)) exact = { written: written.toLowerCase(), lead: written.search(SIGN) };
    if (phrase.kind === "discount code" && !exact && words.length > 1 && !this.#squeezed.has(words.join(""))) this.#squeezed.set(words.join(""), { words, phrase });
    const keyed = words.slice(0, MAX_KEY_WORDS);
    for (let n = 1; n <= keyed.length; n++) this.#prefixes.add(keyed.slice(0, n).join(" "));
    const key = keyed.join(" ");
    const entries = this.#byKey.get(key) ?? [];
    // One of each (a thousand customers called Ada make one phrase): a word's lookup stays short.
    const same = (e: Entry) => !exact && !e.exact && e.phrase.kind === phrase.kind && e.phrase.role === phrase.role && e.phrase.reversed === phrase.reversed && e.words.join(" ") === words.join(" ");
    if (entries.some(same)) return true;
    entries.push({ words, phrase, ...(exact && { exact }) });
    this.#byKey.set(key, entries);
    return true;
  }

  /**
   * The phrases of `kinds` (all when absent) in `text`: at each word the longest phrase starting
   * there, then on after it; with `every`, each phrase at each word (no word skipped).
   */
  find(input: string, options: { kinds?: ReadonlySet<Kind>; every?: boolean } = {}): { text: string; hits: Hit[] } {
    const text = input.normalize("NFKC");
    if (this.#prefixes.size === 0) return { text, hits: [] };
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
          const hit = entry.exact ? exactAt(text, words[i]!.start, entry) : { start: words[i]!.start, end: words[i + entry.words.length - 1]!.end, phrase: entry.phrase };
          if (hit === undefined) continue;
          if (options.every) hits.push(hit);
          if (entry.words.length > bestWords) [best, bestWords] = [hit, entry.words.length];
        }
      }
      if (best && !options.every) hits.push(best);
      i += options.every ? 1 : Math.max(1, bestWords);
    }
    if (this.#squeezed.size > 0) hits.push(...this.#squeezedIn(words, allowed));
    return { text, hits: hits.sort((a, b) => a.start - b.start || b.end - a.end) };
  }

  /** Codes written as one run of letters and digits (`LOYALAB12CD`): each whole run looked up. */
  #squeezedIn(words: readonly Word[], allowed: (e: Entry) => boolean): Hit[] {
    const hits: Hit[] = [];
    for (let first = 0; first < words.length; ) {
      let last = first;
      let key = words[first]!.key;
      while (last + 1 < words.length && words[last + 1]!.start === words[last]!.end) key += words[++last]!.key;
      const entry = this.#squeezed.get(key);
      if (entry && allowed(entry)) hits.push({ start: words[first]!.start, end: words[last]!.end, phrase: entry.phrase });
      first = last + 1;
    }
    return hits;
  }

  /** Whether `text` holds any phrase (of `kinds`). */
  has(text: string, kinds?: ReadonlySet<Kind>): boolean {
    return this.find(text, kinds === undefined ? {} : { kinds }).hits.length > 0;
  }
}

const SIGN = /[\p{L}\p{N}]/u;

/** The hit of an exact code whose words begin at `at`, when it is written there as it is, in any case. */
function exactAt(text: string, at: number, entry: Entry): Hit | undefined {
  const { written, lead } = entry.exact!;
  const [start, end] = [at - lead, at - lead + written.length];
  if (start < 0 || text.slice(start, end).toLowerCase() !== written) return undefined;
  if (SIGN.test(text.charAt(start - 1)) || SIGN.test(text.charAt(end))) return undefined;
  return { start, end, phrase: entry.phrase };
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
