import { userPath } from "./user-path.ts";

describe("paths on the command line", () => {
  it("resolve against where pnpm was started, else the working directory, and keep absolute paths", () => {
    expect(userPath("docs/results/x", { INIT_CWD: "/repo" })).toBe("/repo/docs/results/x");
    expect(userPath("/tmp/r", { INIT_CWD: "/repo" })).toBe("/tmp/r");
    expect(userPath("r", {})).toBe(`${process.cwd()}/r`);
  });
});
