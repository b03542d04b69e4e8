/**
 * Text the source wrote, made safe for the user's terminal: a control character, a bidirectional
 * override or a line separator in a name or an error code is shown escaped (`\u{1b}`), never acted
 * on, so a hostile source cannot clear the screen, set the window's title, or forge a line.
 * @module
 */

/** C0 but the line feed, DEL, C1, bidirectional controls and Unicode's line separators. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

const escaped = (ch: string) => `\\u{${ch.codePointAt(0)!.toString(16)}}`;

/** Every unsafe character escaped; line feeds kept (the command's own lines). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/** On one line: a line feed escaped (`\n`) too. */
export function oneLine(text: string): string {
  return terminalSafe(text.replace(/\n/g, "\\n"));
}
