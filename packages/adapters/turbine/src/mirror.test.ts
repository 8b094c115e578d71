import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostDebianMirror, mirrorFromSources } from "./mirror.ts";

const deb822 = `Types: deb
# a comment line
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
`;

describe("mirrorFromSources", () => {
  it("reads the main archive from deb822 stanzas, not the security one", () => {
    expect(mirrorFromSources(deb822)).toBe("http://mirror.example/debian");
  });
  it("skips deb-src stanzas", () => {
    expect(mirrorFromSources("Types: deb-src\nURIs: http://src.example/debian\n")).toBeUndefined();
  });
  it("reads one-line entries, with or without options", () => {
    expect(mirrorFromSources("# deb http://old.example/debian x main\ndeb [arch=amd64 signed-by=/k.gpg] https://m.example/debian bookworm main\n")).toBe(
      "https://m.example/debian",
    );
    expect(mirrorFromSources("deb http://security.example/debian-security bookworm-security main\ndeb http://m.example/debian bookworm main")).toBe(
      "http://m.example/debian",
    );
  });
  it("returns undefined when there is no deb entry", () => {
    expect(mirrorFromSources("")).toBeUndefined();
  });
});

describe("hostDebianMirror", () => {
  it("prefers sources.list.d over sources.list", () => {
    const etc = mkdtempSync(join(tmpdir(), "apt-"));
    mkdirSync(join(etc, "sources.list.d"));
    writeFileSync(join(etc, "sources.list.d", "debian.sources"), deb822);
    writeFileSync(join(etc, "sources.list"), "deb http://other.example/debian bookworm main\n");
    expect(hostDebianMirror(etc)).toBe("http://mirror.example/debian");
  });
  it("falls back to sources.list, and to undefined", () => {
    const etc = mkdtempSync(join(tmpdir(), "apt-"));
    expect(hostDebianMirror(etc)).toBeUndefined();
    writeFileSync(join(etc, "sources.list"), "deb http://other.example/debian bookworm main\n");
    expect(hostDebianMirror(etc)).toBe("http://other.example/debian");
  });
});
