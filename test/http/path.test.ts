/** requestPath finds the path hono's own getPath finds, for any URL (property). */
import fc from "fast-check";
import { getPath } from "hono/utils/url";
import { describe, expect, it } from "vitest";
import { requestPath } from "../../src/http/path.js";

const piece = fc.oneof(
  fc.constantFrom("/", "%", "%2F", "%25", "%zz", "#", "?", "a", "customers", "é", "%C3%A9", "=", "&", ".", ".."),
  fc.string({ maxLength: 3 }),
);

describe("requestPath", () => {
  it.each(["http://sim.test/rest_api/v1/customers/123?limit=5", "http://sim.test/", "http://sim.test/a%20b?x=%25", "https://h:8080/x#frag"])("%s as hono reads it", (url) => {
    const request = { url } as Request;
    expect(requestPath(request)).toBe(getPath(request));
  });

  it("agrees with hono's getPath (property)", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const request = { url: `http://sim.test/${pieces.join("")}` } as Request;
        expect(requestPath(request)).toBe(getPath(request));
      }),
      { numRuns: 5000 },
    );
  });
});
