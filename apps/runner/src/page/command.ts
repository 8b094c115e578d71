import { writeFileSync } from "node:fs";
import { readResults } from "../results/files.ts";
import { renderPage } from "./render.ts";

export function renderCommand(files: string[], out: string | undefined): void {
  const page = renderPage(readResults(files));
  if (out) writeFileSync(out, page);
  else process.stdout.write(page);
}
