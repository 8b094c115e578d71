/**
 * What the Turbine rows run on. Turbine's wheels are CPython 3.14 only and Debian 12 has no
 * 3.14, so both rows run inside a Debian sid root (python3.14, Debian's torch / pyarrow /
 * onnxruntime) with turbine-fast pip-installed into a venv that sees those Debian packages.
 */

/**
 * The first release documented to ship standard (GIL) cp314 wheels that start with
 * TURBINE_ALLOW_GIL=1. Up to 0.3.x the wheels are cp314t (free-threaded) only, which no
 * interpreter reachable here can load: Debian sid's python3.14 is the GIL build.
 */
export const TURBINE_VERSION = "0.4.0a1";

/** The seed's interpreter, for the page's deviation line. */
export const SEED_PYTHON = "3.14t (free-threaded)";

/** The other Python rows' torch (Debian 12's python3-torch), for the deviation line. */
export const OTHER_ROWS_TORCH = "1.13.1";

export const DEBIAN_SUITE = "sid";

/** debootstrap --include: the interpreter, venv support and TLS roots for pip. */
export const BASE_PACKAGES = ["python3.14", "python3.14-venv", "ca-certificates"];

/**
 * Installed with apt inside the root. pyarrow, pydantic and python-dotenv are turbine-fast's own
 * requirements: taking Debian's means pip installs turbine-fast alone and never replaces the
 * numpy that Debian's torch and pyarrow were built against. onnxruntime is the shared library
 * Turbine dlopens for infer=ml.OnnxModel.
 */
export const APT_PACKAGES = [
  "python3-torch",
  "python3-pyarrow",
  "python3-onnxruntime",
  "python3-numpy",
  "python3-pydantic",
  "python3-dotenv",
];

/** Inside the root. */
export const ROOT_PYTHON = "/usr/bin/python3.14";
export const ROOT_VENV = "/opt/turbine-venv";

/** Page label -> distribution name, as pythonVersions() reads them inside the root. */
export const VERSION_MODULES: Record<string, string> = {
  turbine: "turbine-fast",
  torch: "torch",
  pyarrow: "pyarrow",
  onnxruntime: "onnxruntime",
};
