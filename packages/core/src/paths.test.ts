import { productCacheDir } from "./paths.ts";

describe("productCacheDir", () => {
  it("is the family's folder, so an adapter's rows share what they build", () => {
    expect(productCacheDir("/cache", { id: "b-variant", family: "b" })).toBe("/cache/b");
    expect(productCacheDir("/cache", { id: "b" })).toBe("/cache/b");
  });

  it("is the id's folder for a row without a family, dashes and all", () => {
    expect(productCacheDir("/cache", { id: "some-engine" })).toBe("/cache/some-engine");
  });
});
