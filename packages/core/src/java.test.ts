import { javaCheck, javaVersion, parseJavaVersion } from "./java.ts";

describe("parseJavaVersion", () => {
  it("reads OpenJDK's version line", () => {
    const output = 'openjdk version "17.0.13" 2024-10-15\nOpenJDK Runtime Environment (build 17.0.13+11-Debian-2deb12u1)\n';
    expect(parseJavaVersion(output)).toBe("17.0.13");
  });

  it("is undefined for something else", () => {
    expect(parseJavaVersion("java: command not found")).toBeUndefined();
  });
});

describe("javaCheck", () => {
  it("lists the version found, or says where it looked and what to install", () => {
    expect(javaCheck("17.0.15")).toEqual({ name: "OpenJDK 17", have: "17.0.15", ok: true });
    expect(javaCheck(undefined, "/nowhere")).toEqual(
      { name: "OpenJDK 17", have: "none", ok: false, reason: "no Java at /nowhere", fix: "apt-get install openjdk-17-jdk-headless" },
    );
  });

  it("finds no Java in a JAVA_HOME without bin/java", async () => {
    expect(await javaVersion("/nowhere")).toBeUndefined();
  });
});
