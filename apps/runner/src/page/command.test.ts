import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readResults } from "../results/files.ts";
import { renderCommand } from "./command.ts";
import { writeHtmlPage } from "./html/command.ts";
import { renderPage } from "./render.ts";

const fixture = join(import.meta.dirname, "__fixtures__", "results.json");

describe("render -o into a folder that does not exist yet", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "render-out-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("makes the folder and writes page.md there", () => {
    const out = join(dir, "results", "2026-12-02", "page.md");
    renderCommand([fixture], out);
    expect(readFileSync(out, "utf8")).toBe(renderPage(readResults([fixture])));
  });

  it("makes the folder for page.html too", () => {
    const out = join(dir, "elsewhere", "page.html");
    writeHtmlPage(out, readResults([fixture]));
    expect(readFileSync(out, "utf8")).toMatch(/^<!doctype html>/i);
  });
});
