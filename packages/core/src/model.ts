/**
 * The frozen-model contract: the card in models/ says what the network computes (feature
 * order, maxima, probe rows with their expected risk); any runtime that claims to run the
 * model must reproduce the probes within the card's tolerance.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ort from "onnxruntime-node";
import type { FeatureVector } from "./features.ts";
import { METRIC_FIELDS, METRIC_MAXIMA } from "./schema.ts";

export interface ModelProbe {
  metrics: Record<string, number>;
  features: FeatureVector;
  risk: number;
}

export interface ModelCard {
  name: string;
  /** The hidden layers' widths (absent: [16], the seed's network). */
  hidden?: number[];
  features: string[];
  maxima: Record<string, number>;
  onnx: { file: string; input: string; output: string };
  torch: { file: string; trained_with: string };
  weights_sha256: string;
  tolerance: number;
  probes: ModelProbe[];
}

/** The model every row runs unless told otherwise: the seed's 4-16-1 network. */
export const DEFAULT_MODEL = "risk_mlp";

/**
 * The card `<model>.card.json` in `modelsDir`; `model` defaults to BENCH_MODEL (what the runner
 * hands every app) and then DEFAULT_MODEL. The card names its exports, so one loader serves every model.
 */
export function loadModelCard(modelsDir: string, model: string = process.env.BENCH_MODEL || DEFAULT_MODEL): ModelCard {
  if (!/^[A-Za-z0-9_-]+$/.test(model)) throw new Error(`a model's name is letters, digits, '_' and '-' (got ${JSON.stringify(model)})`);
  const card = JSON.parse(readFileSync(join(modelsDir, `${model}.card.json`), "utf8")) as ModelCard;
  const order = card.features.join(",");
  if (order !== METRIC_FIELDS.join(",")) throw new Error(`model card feature order ${order} is not ${METRIC_FIELDS.join(",")}`);
  for (const field of METRIC_FIELDS) {
    if (card.maxima[field] !== METRIC_MAXIMA[field]) throw new Error(`model card maximum for ${field} disagrees with the schema`);
  }
  return card;
}

/** Largest |score - expected| over the probes; the caller compares it with card.tolerance. */
export async function probeError(card: ModelCard, score: (rows: FeatureVector[]) => Promise<number[]>): Promise<number> {
  const got = await score(card.probes.map((p) => p.features));
  return Math.max(...card.probes.map((p, i) => Math.abs((got[i] ?? Number.NaN) - p.risk)));
}

/** The reference runtime: the committed ONNX export under onnxruntime-node, single-threaded. */
export class ReferenceModel {
  private constructor(
    readonly card: ModelCard,
    private readonly session: ort.InferenceSession,
  ) {}

  static async load(modelsDir: string, name?: string): Promise<ReferenceModel> {
    const card = loadModelCard(modelsDir, name);
    const session = await ort.InferenceSession.create(join(modelsDir, card.onnx.file), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
    });
    const model = new ReferenceModel(card, session);
    const error = await probeError(card, (rows) => model.score(Float32Array.from(rows.flat())));
    if (!(error <= card.tolerance)) throw new Error(`the ONNX export misses the card's probes by ${error}`);
    return model;
  }

  /** Scores a row-major [n, 4] float32 batch. */
  async score(features: Float32Array): Promise<number[]> {
    const n = features.length / 4;
    const input = new ort.Tensor("float32", features, [n, 4]);
    const out = await this.session.run({ [this.card.onnx.input]: input });
    return Array.from((out[this.card.onnx.output] as ort.Tensor).data as Float32Array);
  }
}
