import { readFileSync } from "node:fs";
import { join } from "node:path";
import { APP_DIR } from "./build.ts";
import { rust } from "./product.ts";

it("offers exactly-once through the transactional calls the app makes", () => {
  const offer = rust.exactlyOnce;
  if (!offer?.offered) throw new Error("the Rust row offers exactly-once");
  const app = readFileSync(join(APP_DIR, "src", "transaction.rs"), "utf8");
  for (const call of ["init_transactions", "begin_transaction", "send_offsets_to_transaction", "commit_transaction", "abort_transaction"]) {
    expect(offer.how).toContain(call);
    expect(app).toContain(`.${call}(`);
  }
  expect(offer.commits).toMatch(/once per batch/);
});
