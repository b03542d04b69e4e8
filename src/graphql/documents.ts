/**
 * Query texts to validated documents, with the safety caps that bound the work one request can
 * ask for, and a bounded cache so that a query sent again skips parsing and validation (which
 * cost far more than executing a small query). Refusals are cached too.
 * @module
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  parse,
  Source,
  TokenKind,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { schema } from "./schema.js";

/** What one document may ask for; each is far above any documented operation. */
export const GRAPHQL_LIMITS = {
  /** Lexical tokens of the query text (graphql-js stops parsing there). */
  tokens: 10_000,
  /** Brackets and braces nested in the text: the parser recurses once per level. */
  nesting: 64,
  /** Fields nested in one operation, fragments expanded (the standard introspection query takes 14). */
  depth: 20,
  /** Root fields of one operation, fragments expanded. */
  rootFields: 50,
  /** Fields selected in one operation, at every level, fragments expanded. */
  fields: 2_000,
  /**
   * Times one field may be selected at one place of the response (a response key under one path),
   * fragments expanded: graphql-js compares every two of them, within a budget of steps.
   */
  repeats: 50,
  /** Items the list fields of one operation may ask for in all (the sum of their `limit`s; a `rewardCodes`, all a customer may hold). */
  listItems: 10_000,
  /**
   * Object fields and list items in one variable's value, at every level: the schema's one input
   * object has 3 fields, and graphql-js writes the whole value into each error about it.
   */
  variableValues: 100,
} as const;

export type Compiled = { document: DocumentNode; errors?: undefined } | { document?: undefined; errors: readonly GraphQLError[] };

/** A request error about the document as a whole (no locations). */
export const documentError = (message: string) => new GraphQLError(message);

/** The text's tokens and how deeply its brackets nest; stops early at a lexical error (parse reports it) or past the caps. */
function scan(text: string): { tokens: number; nesting: number } {
  const lexer = new Lexer(new Source(text));
  let depth = 0;
  let nesting = 0;
  let tokens = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF && tokens <= GRAPHQL_LIMITS.tokens; token = lexer.advance()) {
      tokens++;
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L) nesting = Math.max(nesting, ++depth);
      else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) depth--;
      if (nesting > GRAPHQL_LIMITS.nesting) break;
    }
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
  }
  return { tokens, nesting };
}

interface Shape {
  /** Fields at this level. */
  top: number;
  /** Fields at every level. */
  fields: number;
  depth: number;
}

/**
 * The size of a selection set with its fragments expanded. Each fragment is measured once, so
 * fragments spread into each other many times cost nothing to measure (their count can only grow,
 * which the caps then refuse); a fragment spread inside itself is left to validation.
 */
function shapeOf(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, memo: Map<string, Shape>, open: Set<string>): Shape {
  const shape: Shape = { top: 0, fields: 0, depth: 0 };
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const inner = selection.selectionSet ? shapeOf(selection.selectionSet, fragments, memo, open) : undefined;
      shape.top += 1;
      shape.fields += 1 + (inner?.fields ?? 0);
      shape.depth = Math.max(shape.depth, 1 + (inner?.depth ?? 0));
      continue;
    }
    let inner: Shape | undefined;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = shapeOf(selection.selectionSet, fragments, memo, open);
    } else {
      const name = selection.name.value;
      const definition = fragments.get(name);
      inner = memo.get(name);
      if (inner === undefined && definition !== undefined && !open.has(name)) {
        open.add(name);
        inner = shapeOf(definition.selectionSet, fragments, memo, open);
        open.delete(name);
        memo.set(name, inner);
      }
    }
    if (inner === undefined) continue;
    shape.top += inner.top;
    shape.fields += inner.fields;
    shape.depth = Math.max(shape.depth, inner.depth);
  }
  return shape;
}

/** Selections `mostRepeated` visits at most: far more than the fields cap lets a valid document expand to. */
const MAX_VISITS = 10 * GRAPHQL_LIMITS.fields;

/**
 * The response path selected most often in one operation, fragments expanded (each spread where it
 * is spread, a fragment inside itself once), and how often. Run once the fields cap holds; spreads
 * that yield no field (an unknown fragment, a cycle) are not counted by it, so the walk also stops
 * after a bound of selections visited, leaving such a document to validation.
 */
function mostRepeated(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): { path: string; count: number } {
  const counts = new Map<string, number>();
  let most = { path: "", count: 0 };
  let visits = 0;
  const visit = (selections: SelectionSetNode, path: string, open: Set<string>): void => {
    for (const selection of selections.selections) {
      if (++visits > MAX_VISITS) return;
      if (selection.kind === Kind.FIELD) {
        const key = `${path}${(selection.alias ?? selection.name).value}`;
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        if (count > most.count) most = { path: key, count };
        if (selection.selectionSet) visit(selection.selectionSet, `${key}.`, open);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, path, open);
      } else {
        const name = selection.name.value;
        const definition = fragments.get(name);
        if (definition === undefined || open.has(name)) continue;
        open.add(name);
        visit(definition.selectionSet, path, open);
        open.delete(name);
      }
    }
  };
  visit(set, "", new Set());
  return most;
}

/**
 * The caps every operation of the document must keep: the first one broken, else the fields its
 * queries select, fragments expanded (what graphql-jit compiles code for).
 */
function overCaps(document: DocumentNode): GraphQLError | { queryFields: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const memo = new Map<string, Shape>();
  let queryFields = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const { top, fields, depth } = shapeOf(definition.selectionSet, fragments, memo, new Set());
    if (definition.operation === "query") queryFields += fields;
    const { rootFields, fields: maxFields, depth: maxDepth } = GRAPHQL_LIMITS;
    if (top > rootFields) return documentError(`An operation may select at most ${rootFields} root fields (fragments expanded); this one selects ${top}.`);
    if (fields > maxFields) return documentError(`An operation may select at most ${maxFields} fields (fragments expanded); this one selects ${fields}.`);
    if (depth > maxDepth) return documentError(`An operation may nest fields at most ${maxDepth} levels deep (fragments expanded); this one nests ${depth}.`);
    const { path, count } = mostRepeated(definition.selectionSet, fragments);
    if (count > GRAPHQL_LIMITS.repeats) {
      return documentError(`A field may be selected at most ${GRAPHQL_LIMITS.repeats} times at one place of the response (fragments expanded); ${path} is selected ${count} times: select it once.`);
    }
  }
  return { queryFields };
}

/** A compiled text, and the fields of its queries (0 when refused). */
type Made = { compiled: Compiled; queryFields: number };

const refusal = (...errors: readonly GraphQLError[]): Made => ({ compiled: { errors }, queryFields: 0 });

/** Parses and validates a query text, refusing it before validation when it is beyond the caps. */
function compileUncached(text: string, tokens: number, nesting: number): Made {
  if (nesting > GRAPHQL_LIMITS.nesting) return refusal(documentError(`A document may nest brackets at most ${GRAPHQL_LIMITS.nesting} levels deep.`));
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: GRAPHQL_LIMITS.tokens });
  } catch (error) {
    if (error instanceof GraphQLError) return refusal(error);
    throw error;
  }
  const capped = overCaps(document);
  if (capped instanceof GraphQLError) return refusal(capped);
  const errors = validateDocument(document);
  return errors.length > 0 ? refusal(...errors) : { compiled: { document }, queryFields: capped.queryFields };
}

/** Heap a kept text takes a character (a text of characters beyond Latin-1 takes two bytes each). */
const CHAR_BYTES = 2;
/** Heap a parsed and validated document takes a token: its AST nodes and locations. */
const TOKEN_BYTES = 512;
/** Heap graphql-jit's compiled function of a query takes a field selected (fragments expanded; about 1.2 KB for the introspection query's). */
const JIT_FIELD_BYTES = 1536;
/** Heap a kept error takes: the object, its locations and its stack, read as text. */
const ERROR_BYTES = 2048;

/** What a cache entry holds, in bytes: its text (the key, which its AST shares), its AST, its compiled function, its errors. */
function entryBytes(text: string, tokens: number, made: Made): number {
  return CHAR_BYTES * text.length + TOKEN_BYTES * tokens + JIT_FIELD_BYTES * made.queryFields + ERROR_BYTES * (made.compiled.errors?.length ?? 0);
}

/** What graphql-js says instead of why, when it gives up (it bounds its steps comparing same-named fields and following fragments). */
const ABORTED = "Validation aborted.";

/** graphql-js's validation, with a refusal that says why where graphql-js only says it stopped. */
export function validateDocument(document: DocumentNode): readonly GraphQLError[] {
  const errors = validate(schema, document);
  if (!errors.some((e) => e.message === ABORTED)) return errors;
  const why = "The document is too costly to validate: graphql-js gave up part way (it bounds its steps comparing fields of one name at one place, and following fragment spreads). Select each field, and spread each fragment, once at one place.";
  return errors.map((e) => (e.message === ABORTED ? documentError(why) : e));
}

/**
 * Recently compiled texts, least recently used first, kept up to `maxBytes` (each entry
 * measured by `entryBytes`); a document of more than `maxDocumentBytes` is compiled every time.
 * Bytes, not entries or tokens: a 1 MB document of whitespace is 6 tokens.
 */
export class DocumentCache {
  readonly #entries = new Map<string, { compiled: Compiled; bytes: number }>();
  #bytes = 0;
  readonly #kept = new WeakMap<OperationDefinitionNode, object>();

  constructor(
    readonly maxBytes = 32 * 1024 * 1024,
    readonly maxDocumentBytes = maxBytes / 16,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** What the entries hold, in bytes, as measured. */
  get bytes(): number {
    return this.#bytes;
  }

  compile(text: string): Compiled {
    const known = this.#entries.get(text);
    if (known !== undefined) {
      this.#entries.delete(text);
      this.#entries.set(text, known);
      return known.compiled;
    }
    const { tokens, nesting } = scan(text);
    const made = compileUncached(text, tokens, nesting);
    const bytes = entryBytes(text, tokens, made);
    if (bytes > this.maxDocumentBytes) return made.compiled;
    // Until a stack is read, V8 keeps each frame's function and receiver: for a validation error,
    // the whole validation (tens of kilobytes).
    for (const error of made.compiled.errors ?? []) void error.stack;
    this.#entries.set(text, { compiled: made.compiled, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
    return made.compiled;
  }

  /** What is kept for one operation of a compiled document (`make` makes it on first ask); it goes when the document does. */
  kept<T extends object>(operation: OperationDefinitionNode, make: () => T): T {
    let value = this.#kept.get(operation) as T | undefined;
    if (value === undefined) this.#kept.set(operation, (value = make()));
    return value;
  }
}
