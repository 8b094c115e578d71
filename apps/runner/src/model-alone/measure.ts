/**
 * Times the model alone: models/model_alone.py in the model-alone venv (env.ts), at the given
 * call shapes, and its one line of JSON checked before it is kept.
 */
import type { ModelCall } from "@bench/core";
import { execa } from "execa";
import { join } from "node:path";
import type { ModelAloneRun } from "../results/types.ts";
import { shapeKey } from "./shapes.ts";

/** Seconds model_alone.py may take: a few seconds a shape, with room for a slow machine. */
const TIMEOUT_SEC = 180;

export interface ModelAloneEnv {
  python: string;
  modelsDir: string;
}

export async function timeModelAlone(env: ModelAloneEnv, model: string, shapes: readonly ModelCall[], round: number): Promise<ModelAloneRun> {
  const startedAt = new Date().toISOString();
  const done = await execa(env.python, [join(env.modelsDir, "model_alone.py"), ...shapes.map(shapeKey)], {
    env: { PYTHONPATH: env.modelsDir, BENCH_MODELS_DIR: env.modelsDir, BENCH_MODEL: model },
    timeout: TIMEOUT_SEC * 1000,
    reject: false,
  });
  if (done.exitCode !== 0) {
    const why = done.timedOut ? `did not finish within ${TIMEOUT_SEC} s` : String(done.stderr).trim().split("\n").slice(-4).join(" / ");
    throw new Error(`model_alone.py failed (exit ${done.exitCode ?? "none"}): ${why}`);
  }
  return { round, startedAt, ...parseModelAlone(String(done.stdout), model, shapes) };
}

/** model_alone.py's output, or why it cannot be kept: the model asked, every shape asked, positive finite figures. */
export function parseModelAlone(stdout: string, model: string, shapes: readonly ModelCall[]): Pick<ModelAloneRun, "model" | "versions" | "shapes"> {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new Error(`model_alone.py printed no JSON line: ${JSON.stringify(line.slice(0, 200))}`);
  }
  const out = parsed as Partial<Pick<ModelAloneRun, "model" | "versions" | "shapes">>;
  if (out.model !== model) throw new Error(`model_alone.py timed ${String(out.model)}, not ${model}`);
  const measured = Array.isArray(out.shapes) ? out.shapes : [];
  const kept: ModelAloneRun["shapes"] = [];
  for (const shape of shapes) {
    const got = measured.find((m) => m.runtime === shape.runtime && m.records === shape.records);
    const figures = got?.usPerRecord;
    if (!Array.isArray(figures) || figures.length === 0 || !figures.every((x) => typeof x === "number" && Number.isFinite(x) && x > 0)) {
      throw new Error(`model_alone.py gave no positive figures for ${shapeKey(shape)}`);
    }
    kept.push({ runtime: shape.runtime, records: shape.records, usPerRecord: figures });
  }
  return { model, versions: typeof out.versions === "object" && out.versions !== null ? out.versions : {}, shapes: kept };
}
