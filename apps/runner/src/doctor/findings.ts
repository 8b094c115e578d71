/** What the doctor found on a machine: plain data, so the verdicts can be tested on made-up machines. */
export interface Findings {
  /** `process.versions.node` of the Node.js running the bench. */
  node: string;
  /** Major version of `java` on PATH (undefined: none). */
  javaMajor?: number;
  /** Whether Flink's fixed JAVA_HOME (Debian's OpenJDK 17) is there. */
  flinkJavaHome: boolean;
  mavenVersion?: string;
  /** `/usr/bin/python3.11 --version` (undefined: none). */
  python311?: string;
  /** Whether `python3.11 -m venv` can make a venv with pip (Debian splits it into python3.11-venv). */
  python311Venv: boolean;
  /** torch importable from /usr/bin/python3.11 (Debian's python3-torch), its version. */
  torch?: string;
  /** A free-threaded CPython 3.14 on PATH (python3.14t), its path. */
  freeThreadedPython?: string;
  risingwaveBin?: { path: string; executable: boolean };
  risingwaveUrl?: string;
  /** Free space where the caches go, GB. */
  diskFreeGb: number;
  cacheDir: string;
  cores: number;
  memoryGb: number;
  /** CPU busy on the whole machine over a short sample before anything of the bench runs, 100 = one core. */
  busyCpuPercent: number;
  stealPercent: number;
}
