import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recoveryInitialised, RECOVERY_DIR, RECOVERY_PARTITION } from "./state.ts";

describe("the recovery store", () => {
  it("calls the recovery directory initialised only once its partition file exists", () => {
    const dir = mkdtempSync(join(tmpdir(), "bytewax-state-"));
    try {
      expect(recoveryInitialised(dir)).toBe(false);
      mkdirSync(join(dir, RECOVERY_DIR));
      expect(recoveryInitialised(dir)).toBe(false);
      writeFileSync(join(dir, RECOVERY_DIR, RECOVERY_PARTITION), "");
      expect(recoveryInitialised(dir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
