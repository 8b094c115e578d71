/**
 * A child process's part of the output audit (audit-part.ts): the request in, the tallies out,
 * over IPC. A process, not a worker thread: the Kafka binding cannot load in a worker.
 */
import { auditPart, type PartRequest } from "./audit-part.ts";

// A runner that ends (or is killed) mid-audit takes its readers with it.
process.once("disconnect", () => process.exit(0));
process.once("message", (req: PartRequest) => {
  void auditPart(req).then((result) => process.send?.(result, undefined, undefined, () => process.disconnect()));
});
