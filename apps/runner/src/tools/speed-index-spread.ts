/**
 * The speed index's own spread on this machine: N readings in a row, each printed with its
 * isolates, then the mean and the coefficient of variation. Run it on a quiet machine before
 * trusting a page's "at reference speed" column:
 *   pnpm --filter runner exec tsx src/tools/speed-index-spread.ts 20
 */
import { measureSpeedIndex } from "../run/speed-index.ts";
import { coefficientOfVariation } from "../metrics/stats.ts";

async function main(readings: number): Promise<void> {
  const values: number[] = [];
  for (let i = 0; i < readings; i++) {
    const r = await measureSpeedIndex();
    values.push(r.recordsPerCpuSecond);
    console.log(`${Math.round(r.recordsPerCpuSecond)}  isolates ${r.isolates.map((x) => `${Math.round(x / 1000)}k`).join(" ")}`);
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  console.log(
    `${readings} readings: mean ${Math.round(mean)}, min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))}, CV ` +
      `${(coefficientOfVariation(values) * 100).toFixed(2)}%`,
  );
}

void main(Number(process.argv[2] ?? 20));
