/**
 * A model on a model server (the node row's, and the runner's client timing the server alone):
 * each batch's [records, 4] float32 features sent as ONE Open Inference Protocol (KServe v2)
 * ModelInfer call over gRPC (@grpc/grpc-js, the protocol's messages from inference.proto), the
 * risks read back from the answer. It scores as ReferenceModel does (score(features) -> risks), so
 * the node row's loop around it is its embedded loop.
 *
 * No record may be committed unscored: a server that is down or slow (UNAVAILABLE,
 * DEADLINE_EXCEEDED past CALL_TIMEOUT_MS) is called again while the batch waits, with one line
 * logged per outage, for at most OUTAGE_LIMIT_MS; a wrong answer (another output, type or shape, or
 * a refused request) is a BadAnswer that ends the app before anything of the batch is produced.
 */
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { loadModelCard, probeError, type ModelCard } from "../model.ts";

/** One call's longest wait for its answer: far above a forward of 10,000 records on a busy core. */
export const CALL_TIMEOUT_MS = 10_000;
/** How long an outage may last before the app gives up: a server's restart, its model load included. */
export const OUTAGE_LIMIT_MS = 120_000;
const RETRY_PAUSE_MS = 200;

/** The server answered, but not with one FP32 risk per record: no retry can fix that. */
export class BadAnswer extends Error {}

export interface InferOutputTensor {
  name: string;
  datatype: string;
  shape: number[];
  contents?: { fp32Contents?: number[] } | null;
}

export interface InferResponse {
  outputs: InferOutputTensor[];
  rawOutputContents: Buffer[];
}

/** The answer's risks, one per record, or BadAnswer saying what came instead. Raw contents are indexed as the outputs are. */
export function risksOf(response: InferResponse, records: number, output: string): number[] {
  const index = response.outputs.findIndex((o) => o.name === output);
  const tensor = response.outputs[index];
  if (!tensor) throw new BadAnswer(`the model server's answer has no output '${output}'`);
  if (tensor.datatype !== "FP32") throw new BadAnswer(`the model server answered '${output}' as ${tensor.datatype}, not FP32`);
  const shape = tensor.shape.map(Number);
  if (shape.length !== 2 || shape[0] !== records || shape[1] !== 1) {
    throw new BadAnswer(`the model server answered '${output}' of shape [${shape.join(", ")}] for ${records} records; expected [${records}, 1]`);
  }
  const raw = response.rawOutputContents[index];
  const risks = raw ? Array.from(new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))) : (tensor.contents?.fp32Contents ?? []);
  if (risks.length !== records) throw new BadAnswer(`the model server sent ${risks.length} values of '${output}' for ${records} records`);
  return risks;
}

/** A server that is down, restarting or slow, as gRPC says it: worth another call. */
export function retriable(code: grpc.status | undefined): boolean {
  return code === grpc.status.UNAVAILABLE || code === grpc.status.DEADLINE_EXCEEDED;
}

type Unary<Req, Res> = (request: Req, options: grpc.CallOptions, done: (error: grpc.ServiceError | null, response?: Res) => void) => void;

interface InferenceClient extends grpc.Client {
  ModelInfer: Unary<object, InferResponse>;
}

function inferenceClient(address: string): InferenceClient {
  const definition = protoLoader.loadSync(join(import.meta.dirname, "inference.proto"), { longs: Number, defaults: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { inference: { GRPCInferenceService: grpc.ServiceClientConstructor } };
  return new pkg.inference.GRPCInferenceService(address, grpc.credentials.createInsecure()) as unknown as InferenceClient;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class ServedModel {
  private constructor(
    readonly card: ModelCard,
    private readonly client: InferenceClient,
    private readonly address: string,
    private readonly model: string,
    private readonly stopping: () => boolean,
  ) {}

  /** A client of the server at `address`, checked: the server reproduces the card's probe rows. */
  static async connect(address: string, modelsDir: string, stopping: () => boolean = () => false): Promise<ServedModel> {
    const card = loadModelCard(modelsDir);
    const served = new ServedModel(card, inferenceClient(address), address, card.name, stopping);
    const error = await probeError(card, (rows) => served.score(Float32Array.from(rows.flat())));
    if (!(error <= card.tolerance)) throw new Error(`the model server at ${address} misses the card's probes by ${error}: it hosts another model`);
    return served;
  }

  /** ONE ModelInfer call for a row-major [n, 4] float32 batch; repeated through an outage, never past a wrong answer. */
  async score(features: Float32Array): Promise<number[]> {
    const records = features.length / 4;
    const request = {
      modelName: this.model,
      inputs: [{ name: this.card.onnx.input, datatype: "FP32", shape: [records, 4] }],
      outputs: [{ name: this.card.onnx.output }],
      rawInputContents: [Buffer.from(features.buffer, features.byteOffset, features.byteLength)],
    };
    return risksOf(await this.call(request), records, this.card.onnx.output);
  }

  close(): void {
    this.client.close();
  }

  private infer(request: object): Promise<InferResponse> {
    return new Promise((resolve, reject) =>
      this.client.ModelInfer(request, { deadline: Date.now() + CALL_TIMEOUT_MS }, (error, response) =>
        error ? reject(error) : resolve(response as InferResponse)),
    );
  }

  private async call(request: object): Promise<InferResponse> {
    let outageSince: number | undefined;
    for (;;) {
      try {
        const response = await this.infer(request);
        if (outageSince !== undefined) {
          console.error(`model server at ${this.address} answering again after ${((Date.now() - outageSince) / 1000).toFixed(1)} s`);
        }
        return response;
      } catch (error) {
        const failure = error as grpc.ServiceError;
        if (!retriable(failure.code)) throw new BadAnswer(`the model server at ${this.address} refused the batch: ${failure.message}`);
        const now = Date.now();
        if (outageSince === undefined) {
          outageSince = now;
          console.error(`model server at ${this.address} not answering (${grpc.status[failure.code]}): the batch is held, nothing is committed, ` +
            `retrying for up to ${OUTAGE_LIMIT_MS / 1000} s`);
        }
        if (now - outageSince > OUTAGE_LIMIT_MS || this.stopping()) {
          throw new Error(`the model server at ${this.address} has not answered for ${Math.round((now - outageSince) / 1000)} s: ${failure.message}; ` +
            "the batch is not committed and will be read again");
        }
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }
}
