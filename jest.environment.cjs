// Jest runs tests in a separate realm, so a Float32Array made there fails onnxruntime-node's
// instanceof checks. Tests get the host realm's typed arrays instead.
const { TestEnvironment } = require("jest-environment-node");

class HostTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const T of [ArrayBuffer, Float32Array, Float64Array, Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array]) {
      this.global[T.name] = T;
    }
  }
}

module.exports = HostTypedArraysEnvironment;
