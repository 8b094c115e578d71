/**
 * What the doctor found on a machine about the bench's own needs: plain data, so the verdicts
 * can be tested on made-up machines. What a product needs beyond these it says itself
 * (`Product.prerequisites()`), so the runner never learns a product's needs by its id.
 */
export interface Findings {
  /** `process.versions.node` of the Node.js running the bench. */
  node: string;
  /** Major version of `java` on PATH (undefined: none): the broker is Java. */
  javaMajor?: number;
  mavenVersion?: string;
  /** Free space where the caches go, GB. */
  diskFreeGb: number;
  cacheDir: string;
  cores: number;
  memoryGb: number;
  /** CPU busy on the whole machine over a short sample before anything of the bench runs, 100 = one core. */
  busyCpuPercent: number;
  stealPercent: number;
}
