/**
 * Reads a JSON file of any size memory can hold. V8 makes no string longer than about 512 MiB
 * (0x1fffffe8 characters), so a large `--data` file cannot be read as one string. A file over
 * `maxPieceBytes` is read in two passes of fixed-size blocks: the first finds the containers
 * (objects and arrays) larger than a piece; the second builds those containers itself and hands
 * everything else to JSON.parse in pieces of at most `maxPieceBytes` (runs of whole members), so
 * the work stays in the native parser. Files this simulator writes nest only a few such
 * containers deep (the document, `shops`, a shop, its `data`, its `customers` and `activities`).
 * @module
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";

export interface PieceLimits {
  /**
   * The most bytes parsed as one string (a file up to this size is parsed whole, the fastest
   * way): half V8's limit, as UTF-8 bytes decode to at most as many characters.
   */
  maxPieceBytes?: number;
  /** The size of each read. */
  blockBytes?: number;
}

export const MAX_PIECE_BYTES = 256 * 1024 * 1024;
const BLOCK_BYTES = 1024 * 1024;

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** What a pass does at each structural byte outside strings (UTF-8 never puts these bytes inside a character). */
interface Visitor {
  block(bytes: Buffer, offset: number): void;
  structural(byte: number, offset: number): void;
}

/** Feeds the file's blocks and its structural bytes, with their offsets, to a visitor. */
function scan(fd: number, blockBytes: number, visitor: Visitor): number {
  let offset = 0;
  let inString = false;
  let escaped = false;
  for (;;) {
    // A fresh block each time: the second pass keeps blocks that pending pieces still need.
    const bytes = Buffer.allocUnsafe(blockBytes);
    const length = readSync(fd, bytes, 0, blockBytes, offset);
    if (length === 0) return offset;
    const block = bytes.subarray(0, length);
    visitor.block(block, offset);
    for (let i = 0; i < length; i++) {
      const byte = block[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || byte === COMMA || byte === COLON) {
        visitor.structural(byte, offset + i);
      }
    }
    offset += length;
  }
}

/** First pass: the start offsets of the containers larger than a piece. */
class LargeContainers implements Visitor {
  readonly found = new Set<number>();
  readonly #starts: number[] = [];

  constructor(private readonly maxPieceBytes: number) {}

  block(): void {}

  structural(byte: number, offset: number): void {
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.#starts.push(offset);
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      const start = this.#starts.pop();
      if (start !== undefined && offset + 1 - start > this.maxPieceBytes) this.found.add(start);
    }
  }
}

/** A container being built by the second pass, and where it stands. */
interface Frame {
  kind: "root" | "object" | "array";
  value: unknown[] | Record<string, unknown>;
  /** Nesting depth of the container's members. */
  level: number;
  /** The member name it will take in its parent object. */
  key?: string;
  /** Start of the member bytes not yet parsed (-1 while a large member is open). */
  pieceStart: number;
  /** The last separator at this level: the opening bracket or a comma. */
  lastComma: number;
  openAt: number;
  colon: number;
  /** Whether a large member just closed: bytes up to the next separator must be whitespace. */
  afterLarge: boolean;
}

/** Second pass: builds the large containers, parsing the runs of members between them. */
class Assembler implements Visitor {
  readonly #root: Frame = { kind: "root", value: [], level: 0, pieceStart: 0, lastComma: -1, openAt: -1, colon: -1, afterLarge: false };
  readonly #frames: Frame[] = [this.#root];
  #depth = 0;
  /** The blocks still needed for pending pieces, with their file offsets. */
  #blocks: { bytes: Buffer; offset: number }[] = [];

  constructor(
    private readonly large: ReadonlySet<number>,
    private readonly maxPieceBytes: number,
  ) {}

  block(bytes: Buffer, offset: number): void {
    // Only the innermost frame has bytes pending (its parents parsed theirs when it opened).
    const top = this.#frames[this.#frames.length - 1]!;
    const needed = Math.min(top.pieceStart, top.lastComma + 1);
    this.#blocks = this.#blocks.filter((b) => b.offset + b.bytes.length > needed);
    this.#blocks.push({ bytes, offset });
  }

  structural(byte: number, offset: number): void {
    const top = this.#frames[this.#frames.length - 1]!;
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      this.#depth++;
      if (this.large.has(offset)) this.#open(top, byte === OPEN_OBJECT ? "object" : "array", offset);
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (this.#depth === 0) throw this.#unexpected(offset);
      if (this.#depth === top.level) this.#close(top, byte === CLOSE_OBJECT ? "object" : "array", offset);
      this.#depth--;
    } else if (this.#depth === top.level) {
      if (byte === COLON) top.colon = offset;
      else if (top.kind === "root") throw this.#unexpected(offset);
      else this.#separate(top, offset);
    }
  }

  /** The document, once every byte is scanned. */
  finish(size: number): unknown {
    if (this.#frames.length > 1 || this.#depth !== 0) throw new SyntaxError("Unexpected end of JSON input");
    this.#pending(this.#root, size);
    if (this.#root.value.length === 0) throw new SyntaxError("Unexpected end of JSON input");
    return (this.#root.value as unknown[])[0];
  }

  #open(parent: Frame, kind: "object" | "array", offset: number): void {
    // Every ancestor of a large container is large too: it starts at its parent's level.
    let key: string | undefined;
    if (parent.kind === "object") {
      if (parent.colon < parent.lastComma) throw this.#unexpected(offset);
      const name = this.#parse(parent.lastComma + 1, parent.colon);
      if (typeof name !== "string" || !this.#blank(parent.colon + 1, offset)) throw this.#unexpected(offset);
      key = name;
    } else if (!this.#blank(parent.lastComma + 1, offset)) throw this.#unexpected(offset);
    if (parent.lastComma >= parent.pieceStart) this.#add(parent, parent.pieceStart, parent.lastComma, true);
    parent.pieceStart = -1;
    this.#frames.push({
      kind,
      value: kind === "object" ? {} : [],
      level: this.#depth,
      ...(key !== undefined && { key }),
      pieceStart: offset + 1,
      lastComma: offset,
      openAt: offset,
      colon: -1,
      afterLarge: false,
    });
  }

  #close(frame: Frame, kind: "object" | "array", offset: number): void {
    if (frame.kind !== kind) throw this.#unexpected(offset);
    this.#pending(frame, offset);
    this.#frames.pop();
    const parent = this.#frames[this.#frames.length - 1]!;
    if (parent.kind === "object") setMember(parent.value as Record<string, unknown>, frame.key!, frame.value);
    else (parent.value as unknown[]).push(frame.value);
    parent.pieceStart = offset + 1;
    parent.afterLarge = true;
  }

  /** A comma at a frame's level: the run of members grows, and is parsed once it would pass a piece. */
  #separate(frame: Frame, offset: number): void {
    if (frame.afterLarge) {
      if (!this.#blank(frame.pieceStart, offset)) throw this.#unexpected(offset);
      frame.afterLarge = false;
      frame.pieceStart = offset + 1;
    } else if (offset - frame.pieceStart > this.maxPieceBytes && frame.lastComma >= frame.pieceStart) {
      this.#add(frame, frame.pieceStart, frame.lastComma, true);
      frame.pieceStart = frame.lastComma + 1;
    }
    frame.lastComma = offset;
  }

  /** The members from the piece's start to `end`, at the end of a frame. */
  #pending(frame: Frame, end: number): void {
    if (frame.afterLarge) {
      if (!this.#blank(frame.pieceStart, end)) throw this.#unexpected(end);
      return;
    }
    if (end - frame.pieceStart > this.maxPieceBytes && frame.lastComma >= frame.pieceStart) {
      this.#add(frame, frame.pieceStart, frame.lastComma, true);
      frame.pieceStart = frame.lastComma + 1;
    }
    // Blank only when nothing came after the opening bracket: `[ ]`, not `[1, ]`; the document is never blank.
    this.#add(frame, frame.pieceStart, end, frame.lastComma !== frame.openAt);
  }

  /**
   * Parses the members in [start, end) and adds them to the frame's container. `required`: the
   * bytes follow or precede a comma, so blank ones are a missing member (JSON.parse would see
   * `[1,,2]` whole; in pieces, the comma would vanish between them).
   */
  #add(frame: Frame, start: number, end: number, required: boolean): void {
    if (required && this.#blank(start, end)) throw this.#unexpected(end);
    if (frame.kind === "object") {
      const members = this.#parse(start, end, "{", "}") as Record<string, unknown>;
      for (const key of Object.keys(members)) setMember(frame.value as Record<string, unknown>, key, members[key]);
    } else {
      const items = this.#parse(start, end, "[", "]") as unknown[];
      for (const item of items) (frame.value as unknown[]).push(item);
    }
  }

  #parse(start: number, end: number, before = "", after = ""): unknown {
    const text = this.#text(start, end);
    try {
      return JSON.parse(`${before}${text}${after}`);
    } catch (error) {
      throw new SyntaxError(`${(error as Error).message} (in bytes ${start} to ${end} of the file)`);
    }
  }

  #blank(start: number, end: number): boolean {
    return /^\s*$/.test(this.#text(start, end));
  }

  #text(start: number, end: number): string {
    const parts: Buffer[] = [];
    for (const { bytes, offset } of this.#blocks) {
      const from = Math.max(start, offset);
      const to = Math.min(end, offset + bytes.length);
      if (from < to) parts.push(bytes.subarray(from - offset, to - offset));
    }
    return Buffer.concat(parts).toString("utf8");
  }

  #unexpected(offset: number): SyntaxError {
    return new SyntaxError(`Unexpected token at byte ${offset} of the file`);
  }
}

/** Sets a member as JSON.parse does: `__proto__` becomes an own property, never the prototype. */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * The parsed file: as JSON.parse would give it, for any size memory holds. Throws a SyntaxError
 * for a file that is not JSON, and the file system's error for one that cannot be read.
 * @example
 * const state = readJsonFile("state.json");
 */
export function readJsonFile(path: string, { maxPieceBytes = MAX_PIECE_BYTES, blockBytes = BLOCK_BYTES }: PieceLimits = {}): unknown {
  const fd = openSync(path, "r");
  try {
    if (fstatSync(fd).size <= maxPieceBytes) return JSON.parse(readFileSync(fd, "utf8"));
    const large = new LargeContainers(maxPieceBytes);
    scan(fd, blockBytes, large);
    const assembler = new Assembler(large.found, maxPieceBytes);
    return assembler.finish(scan(fd, blockBytes, assembler));
  } finally {
    closeSync(fd);
  }
}
