/**
 * The onnxruntime PyPI wheel the bench takes ONNX Runtime from outside a product's own pins: the
 * native row loads its library (ort's api feature must match: api-31 for 1.31), and the model
 * alone runs the model in it, so the two time the same runtime.
 */
export const ONNXRUNTIME_WHEEL_VERSION = "1.31.1";
