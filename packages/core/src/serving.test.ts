import { parseModelServerUrl, parseServing } from "./serving.ts";

describe("parseServing", () => {
  it("knows embedded and served", () => {
    expect(parseServing("embedded")).toBe("embedded");
    expect(parseServing("served")).toBe("served");
  });

  it("refuses anything else, naming the known values", () => {
    expect(() => parseServing("remote")).toThrow(/unknown serving "remote"; known: embedded, served/);
  });
});

describe("parseModelServerUrl", () => {
  it("takes host:port and grpc:// URLs", () => {
    expect(parseModelServerUrl("127.0.0.1:8081")).toBe("127.0.0.1:8081");
    expect(parseModelServerUrl("grpc://triton.local:8001")).toBe("triton.local:8001");
    expect(parseModelServerUrl("grpc://[::1]:9000/")).toBe("[::1]:9000");
  });

  it("refuses what is no gRPC address, with what to give instead", () => {
    for (const bad of ["http://localhost:8080", "localhost", "localhost:0", "localhost:70000", ""]) {
      expect(() => parseModelServerUrl(bad)).toThrow(/is not a gRPC address: give host:port or grpc:\/\/host:port/);
    }
  });
});
