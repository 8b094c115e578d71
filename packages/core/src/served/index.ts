/**
 * `@bench/core/served`: a client of a model server over the Open Inference Protocol's gRPC, apart
 * from the package's main entry so that only what calls a server loads gRPC.
 */
export { BadAnswer, CALL_TIMEOUT_MS, OUTAGE_LIMIT_MS, retriable, risksOf, ServedModel, type InferResponse } from "./served-model.ts";
