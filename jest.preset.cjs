// Shared by every package's jest.config: TypeScript through SWC, emitted as ES modules
// (execa and friends are ESM-only), run with --experimental-vm-modules.
module.exports = {
  testEnvironment: require.resolve("./jest.environment.cjs"),
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        jsc: { parser: { syntax: "typescript" }, target: "es2022" },
        module: { type: "es6" },
      },
    ],
  },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
};
