/**
 * What the Turbine rows run on: a free-threaded CPython 3.14 the user has, and a venv made
 * from it with exact pins. turbine-fast ships free-threaded (cp314t) wheels only and no sdist.
 */

/** The newest turbine-fast the Python package index serves; the one place it is pinned. */
export const TURBINE_VERSION = "0.3.0a1";

/** Exact pins, each with a cp314t manylinux x86_64 wheel. */
export const PYARROW = "pyarrow==26.0.1";
export const NUMPY = "numpy==2.5.5";
/** Turbine's compiled core needs an ONNX Runtime library at MIN_ONNXRUNTIME or newer. */
export const ONNXRUNTIME = "onnxruntime==1.32.0";
export const MIN_ONNXRUNTIME = "1.27";
export const TORCH = "torch==2.15.0";

/** Path to a free-threaded CPython 3.14. */
export const ENV_PYTHON = "TURBINE_PYTHON";
/** A package index serving a CPU-only torch build (the default index's Linux torch brings CUDA). */
export const ENV_TORCH_INDEX = "TURBINE_TORCH_INDEX_URL";
/** The name free-threaded builds install their interpreter under. */
export const FREE_THREADED_NAME = "python3.14t";

/** The seed's interpreter, for the page's deviation line. */
export const SEED_PYTHON = "3.14t (free-threaded)";

/** The other Python rows' torch (Debian 12's python3-torch), for the deviation line. */
export const OTHER_ROWS_TORCH = "1.13.1";

/** Page label -> distribution name, as pythonVersions() reads them in the venv. */
export const VERSION_MODULES: Record<string, string> = {
  turbine: "turbine-fast",
  torch: "torch",
  pyarrow: "pyarrow",
  onnxruntime: "onnxruntime",
};
