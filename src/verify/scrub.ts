/**
 * What keeps verify's output safe whatever a target answers: no credential in any form a renderer
 * writes it (as is, JSON-escaped, XML-escaped, in a Markdown cell), and no control character that
 * could rewrite a terminal (an escape sequence, a carriage return, a bidi override) or forge a
 * line of the report. Secrets are taken out of the data before anything renders it, and each
 * rendered text is scrubbed once more as a last guard.
 * @module
 */
import { escapeXml } from "../coverage/formats.js";

/** What a secret is written as instead. */
export const REDACTED = "[redacted]";
/** Shorter secrets are not replaced: a secret of one or two characters would blank the output. */
const MIN_SECRET_LENGTH = 3;

// C0 and C1 controls, DEL, and the Unicode marks that reorder or hide text on a terminal.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escapeOne = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Every control character written as `\u001b`, newlines included: a value stays on its line. */
export const escapeControls = (text: string) => text.replace(CONTROLS, escapeOne);

/** The same for text of several lines (an error message, a report): its newlines kept. */
export const terminalSafe = (text: string) => text.replace(CONTROLS_BUT_NEWLINE, escapeOne);

/** Text in a Markdown table cell or list item: on one line, no cell broken, no HTML (a target's value could hold an image that calls home). */
export const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The ways each renderer escapes text; a secret is looked for in every combination of them. */
const ENCODINGS: ((text: string) => string)[] = [(t) => JSON.stringify(t).slice(1, -1), escapeXml, cell, escapeControls, encodeURIComponent];

/** The secrets worth replacing: given, and long enough. */
const liveSecrets = (secrets: readonly (string | undefined)[]) => secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH);

/** The secret and each form a renderer may write it in, longest first. */
export function secretForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of liveSecrets(secrets)) {
    let layer = [secret];
    for (let depth = 0; depth < 3; depth++) {
      layer.forEach((form) => forms.add(form));
      layer = layer.flatMap((form) => ENCODINGS.map((encode) => encode(form)));
    }
    layer.forEach((form) => forms.add(form));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The text with every form of every secret replaced by `[redacted]`. */
export function redactForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** The value with every secret replaced in each of its strings, keys too: for data, which holds them as they are. */
export function withoutSecrets<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const kept = liveSecrets(secrets).sort((a, b) => b.length - a.length);
  return kept.length === 0 ? value : mapStrings(value, (text) => redactForms(text, kept));
}

/**
 * A JSON-like value with `change` applied to every string in it, object keys included; objects are
 * made anew with their own properties only (a `__proto__` key stays a key). Walked with a stack of
 * its own, so no depth overflows it.
 */
export function mapStrings<T>(value: T, change: (text: string) => string): T {
  const root = { value: value as unknown };
  const work: [holder: Record<string | number, unknown>, key: string | number][] = [[root, "value"]];
  while (work.length > 0) {
    const [holder, key] = work.pop()!;
    const node = holder[key];
    if (typeof node === "string") put(holder, key, change(node));
    else if (Array.isArray(node)) {
      const copy = [...node];
      put(holder, key, copy);
      copy.forEach((_, i) => work.push([copy as unknown as Record<number, unknown>, i]));
    } else if (typeof node === "object" && node !== null) {
      const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [change(k), v]));
      put(holder, key, copy);
      Object.keys(copy).forEach((k) => work.push([copy, k]));
    }
  }
  return root.value as T;
}

/** Sets an own property, whatever its name (`holder.__proto__ = x` would set the prototype). */
const put = (holder: object, key: string | number, value: unknown) => Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
