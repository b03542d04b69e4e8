/**
 * How import's Finder reads text (issue 35, item 6): originals as words, in any case and Unicode
 * form, with any separator, never inside a longer word; a code that is only its prefix as written;
 * the longest phrase at a place; and a phrase given many times kept once, so many customers of one
 * name cannot make each lookup long, nor many codes each text's scan.
 */
import { describe, expect, it } from "vitest";
import { emailsIn, Finder, type Phrase } from "../../src/import/finder.js";

const name = (value: string): Phrase => ({ kind: "name", value, role: "first" });
const found = (finder: Finder, text: string) => finder.find(text).hits.map((h) => [h.phrase.value, finder.find(text).text.slice(h.start, h.end)]);

describe("import's Finder", () => {
  it("finds a name in any case, form and spacing, as whole words only", () => {
    const finder = new Finder();
    finder.add(name("Ada "));
    finder.add({ kind: "name", value: "Ada Lovelace", parts: ["Ada", "Lovelace"] });
    expect(found(finder, "Gift from ADA  LOVELACE")).toEqual([["Ada Lovelace", "ADA  LOVELACE"]]);
    expect(found(finder, "Ａｄａ, A\u200bda and Ada's")).toEqual([["Ada ", "Ada"], ["Ada ", "A\u200bda"], ["Ada ", "Ada"]]);
    expect(found(finder, "Adam, Canada, ada2")).toEqual([["Ada ", "ada"]]);
  });

  it("finds a Latin name whatever its accents, and nothing else for them", () => {
    const finder = new Finder();
    finder.add(name("Zoë"));
    finder.add(name("José"));
    expect(found(finder, "Zoe, ZOË, Zoe\u0308, Jose and JOSÉ; not Zoey")).toEqual([["Zoë", "Zoe"], ["Zoë", "ZOË"], ["Zoë", "Zoë"], ["José", "Jose"], ["José", "JOSÉ"]]);
  });

  it("finds a code written without its separators, as a whole run of letters and digits", () => {
    const finder = new Finder();
    finder.add({ kind: "discount code", value: "LOYAL-AB12CD" });
    expect(found(finder, "Code LOYALAB12CD, (loyalab12cd). Not XLOYALAB12CD")).toEqual([["LOYAL-AB12CD", "LOYALAB12CD"], ["LOYAL-AB12CD", "loyalab12cd"]]);
  });

  it("finds a code with any separator, and one that is only its prefix as written", () => {
    const finder = new Finder();
    finder.add({ kind: "discount code", value: "LOYAL-AB12CD" });
    finder.add({ kind: "discount code", value: "LOYAL-" });
    expect(found(finder, "Gave loyal_ab12cd and LOYAL AB12CD")).toEqual([["LOYAL-AB12CD", "loyal_ab12cd"], ["LOYAL-AB12CD", "LOYAL AB12CD"]]);
    expect(found(finder, "LOYAL-QX7 is not it, LOYAL- is")).toEqual([["LOYAL-", "LOYAL-"]]);
  });

  it("reads emails that are not ASCII, in one pass", () => {
    expect(emailsIn("Mail josé.ada@exämple.com, or x@y.")).toEqual(["josé.ada@exämple.com"]);
    expect(emailsIn(`${"a@".repeat(100_000)}b`)).toEqual([]);
  });

  it("keeps a phrase given many times once: 100,000 customers called Ada, 10,000 labels", () => {
    const finder = new Finder();
    for (let i = 0; i < 100_000; i++) finder.add(name(i % 2 ? "Ada" : "ADA"));
    // One entry to walk at each "Ada" of a label, not 100,000 (32 s for these labels before).
    expect(finder.size).toBe(1);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) hits += finder.find(`Thanks Ada, ${i}`).hits.length;
    expect(hits).toBe(10_000);
  });

  it("looks codes that are only their prefix up by their words too: 100,000 of them, 10,000 labels", () => {
    const finder = new Finder();
    for (let i = 0; i < 100_000; i++) finder.add({ kind: "discount code", value: `P${i}-` });
    let hits = 0;
    for (let i = 0; i < 10_000; i++) hits += finder.find(`Code P${i}- and P${i}-X`).hits.length;
    expect(hits).toBe(10_000);
  });
});
