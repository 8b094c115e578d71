import { sharedWhileRunning, unmetReason } from "./prerequisites.ts";

describe("unmetReason", () => {
  it("is undefined when every prerequisite is met", () => {
    expect(unmetReason([{ name: "a", have: "1", ok: true }])).toBeUndefined();
    expect(unmetReason([])).toBeUndefined();
  });

  it("says each unmet one with its fix, in order, and leaves the met ones out", () => {
    expect(
      unmetReason([
        { name: "a", have: "none", ok: false, reason: "no a", fix: "install a" },
        { name: "b", have: "2", ok: true },
        { name: "c", have: "old", ok: false, reason: "c is too old", fix: "upgrade c" },
      ]),
    ).toBe("no a (fix: install a); c is too old (fix: upgrade c)");
  });
});

describe("sharedWhileRunning", () => {
  it("runs the lookup once for calls made while it runs, and again after it settled", async () => {
    let calls = 0;
    const look = sharedWhileRunning(async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 10));
      return calls;
    });
    expect(await Promise.all([look(), look(), look()])).toEqual([1, 1, 1]);
    expect(await look()).toBe(2);
  });

  it("looks again after a lookup that failed", async () => {
    let calls = 0;
    const look = sharedWhileRunning(async () => {
      calls += 1;
      if (calls === 1) throw new Error("first fails");
      return "ok";
    });
    await expect(look()).rejects.toThrow("first fails");
    await expect(look()).resolves.toBe("ok");
  });
});
