import { DEBIAN_NUMPY, DEBIAN_PYTHON, debianTorchEnv } from "./debian-torch.ts";

describe("debianTorchEnv", () => {
  it("is Debian's python3.11 seeing Debian's torch, with Debian's numpy pinned after the row's pins", () => {
    expect(debianTorchEnv(["quixstreams==3.28.1"])).toEqual({
      python: DEBIAN_PYTHON,
      systemSitePackages: true,
      requirements: ["quixstreams==3.28.1", DEBIAN_NUMPY],
    });
  });
});
