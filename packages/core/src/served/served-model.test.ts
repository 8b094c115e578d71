import * as grpc from "@grpc/grpc-js";
import { BadAnswer, retriable, risksOf, type InferResponse } from "./served-model.ts";

const raw = (values: number[]): Buffer => Buffer.from(Float32Array.from(values).buffer);
const answer = (over: Partial<InferResponse["outputs"][number]> = {}, rawOutputContents = [raw([0.25, 0.5])]): InferResponse => ({
  outputs: [{ name: "risk", datatype: "FP32", shape: [2, 1], ...over }],
  rawOutputContents,
});

describe("risksOf: a model server's answer", () => {
  it("reads one FP32 risk per record from the raw contents, or from fp32_contents when the server sends no raw ones", () => {
    expect(risksOf(answer(), 2, "risk")).toEqual([0.25, 0.5]);
    expect(risksOf(answer({ contents: { fp32Contents: [0.25, 0.5] } }, []), 2, "risk")).toEqual([0.25, 0.5]);
  });

  it("refuses another output, type, shape or count, saying what came", () => {
    const bad = (response: InferResponse): string => {
      try {
        risksOf(response, 2, "risk");
      } catch (error) {
        expect(error).toBeInstanceOf(BadAnswer);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(bad(answer({ name: "score" }))).toBe("the model server's answer has no output 'risk'");
    expect(bad(answer({ datatype: "FP64" }))).toBe("the model server answered 'risk' as FP64, not FP32");
    expect(bad(answer({ shape: [1, 2] }))).toBe("the model server answered 'risk' of shape [1, 2] for 2 records; expected [2, 1]");
    expect(bad(answer({}, [raw([0.25])]))).toBe("the model server sent 1 values of 'risk' for 2 records");
  });
});

describe("retriable", () => {
  it("calls again while the server is down or slow, never after it refused the request", () => {
    expect(retriable(grpc.status.UNAVAILABLE)).toBe(true);
    expect(retriable(grpc.status.DEADLINE_EXCEEDED)).toBe(true);
    expect(retriable(grpc.status.INVALID_ARGUMENT)).toBe(false);
    expect(retriable(grpc.status.NOT_FOUND)).toBe(false);
  });
});
