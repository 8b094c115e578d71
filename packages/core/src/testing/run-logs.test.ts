import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLogs } from "./run-logs.ts";

it("joins every .log under the run folder, nested ones too, and nothing else", () => {
  const dir = mkdtempSync(join(tmpdir(), "run-logs-"));
  mkdirSync(join(dir, "jvm"));
  writeFileSync(join(dir, "app.log"), "app line");
  writeFileSync(join(dir, "jvm", "taskmanager.log"), "worker line");
  writeFileSync(join(dir, "checkpoint.txt"), "not a log");
  expect(runLogs(dir)).toBe("app line\nworker line");
});
