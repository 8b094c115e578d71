import { streamingComputeNodes } from "./risingwave-server.ts";

describe("streamingComputeNodes", () => {
  const meta = { type: "WORKER_TYPE_META", state: "RUNNING", is_streaming: null };
  const frontend = { type: "WORKER_TYPE_FRONTEND", state: "RUNNING", is_streaming: null };
  const compute = { type: "WORKER_TYPE_COMPUTE_NODE", state: "RUNNING", is_streaming: true };

  test("meta and frontend answering is not enough: SELECT 1 can precede the compute node", () => {
    expect(streamingComputeNodes([meta, frontend])).toBe(0);
  });

  test("a compute node that is still starting, or serving only, does not count", () => {
    expect(streamingComputeNodes([meta, frontend, { ...compute, state: "STARTING" }])).toBe(0);
    expect(streamingComputeNodes([{ ...compute, is_streaming: false }])).toBe(0);
  });

  test("a running streaming compute node counts", () => {
    expect(streamingComputeNodes([meta, frontend, compute])).toBe(1);
  });
});
