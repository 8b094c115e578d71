import { parseJavaVersion } from "./java.ts";

describe("parseJavaVersion", () => {
  it("reads OpenJDK's version line", () => {
    const output = 'openjdk version "17.0.13" 2024-10-15\nOpenJDK Runtime Environment (build 17.0.13+11-Debian-2deb12u1)\n';
    expect(parseJavaVersion(output)).toBe("17.0.13");
  });

  it("is undefined for something else", () => {
    expect(parseJavaVersion("java: command not found")).toBeUndefined();
  });
});
