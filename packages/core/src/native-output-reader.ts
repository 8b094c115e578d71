/**
 * The audit's native reader (native/output-reader, a Rust crate built here once per compiler and
 * source): it reads an offset range of a topic with librdkafka and hands each record on as a
 * frame. The JavaScript binding builds an object per record on the runner's thread, about 6 µs
 * each, which made the audit of a knee search's tens of millions of outputs the bench's largest
 * wait; a frame costs the runner well under a µs. Only well-formed outputs are decoded natively
 * (see the crate's main.rs for which); every other record reaches the runner whole, to be judged
 * by readOutput as if the binding had read it.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { buildCrate, rustcVersion, type CargoCrate } from "./cargo-build.ts";
import { READER_SETTINGS, type ConsumedMessage } from "./kafka.ts";

export const OUTPUT_READER_CRATE: CargoCrate = {
  crateDir: join(import.meta.dirname, "..", "native", "output-reader"),
  binary: "output-reader",
  what: "the audit's output reader",
};

/** The reader's binary, built under `cacheDir` when it is not yet; else why there is none (the audit then reads through the binding). */
export async function buildOutputReader(cacheDir: string, log: (line: string) => void): Promise<{ binary: string } | { why: string }> {
  const rustc = await rustcVersion();
  if (rustc === undefined) return { why: "no rustc on PATH to build it with" };
  try {
    return { binary: await buildCrate(OUTPUT_READER_CRATE, join(cacheDir, "output-reader"), rustc, log) };
  } catch (error) {
    return { why: (error as Error).message.split("\n").slice(0, 3).join(" ") };
  }
}

export interface FrameHandlers {
  /** A well-formed output: its seq is below `produced`, and its risk a number unless the row is a passthrough (NaN then); tsMs NaN when absent. */
  decoded(offset: number, seq: number, tsMs: number, risk: number, timestamp: number): void;
  /** Any other record, as read. */
  raw(m: ConsumedMessage): void;
}

const GOOD = 1;
const RAW = 2;
const GOOD_BYTES = 1 + 5 * 8;
const RAW_HEAD_BYTES = 1 + 2 * 8 + 4;

/** Hands on every whole frame in `buf`; returns how many bytes they took (the rest waits for more). */
export function decodeFrames(buf: Buffer, on: FrameHandlers): number {
  let at = 0;
  for (;;) {
    const tag = buf[at];
    if (tag === GOOD) {
      if (buf.length - at < GOOD_BYTES) return at;
      on.decoded(buf.readDoubleLE(at + 1), buf.readDoubleLE(at + 9), buf.readDoubleLE(at + 17), buf.readDoubleLE(at + 25), buf.readDoubleLE(at + 33));
      at += GOOD_BYTES;
    } else if (tag === RAW) {
      if (buf.length - at < RAW_HEAD_BYTES) return at;
      const length = buf.readUInt32LE(at + 17);
      if (buf.length - at < RAW_HEAD_BYTES + length) return at;
      const value = Buffer.from(buf.subarray(at + RAW_HEAD_BYTES, at + RAW_HEAD_BYTES + length));
      on.raw({ offset: buf.readDoubleLE(at + 1), timestamp: buf.readDoubleLE(at + 9), value });
      at += RAW_HEAD_BYTES + length;
    } else if (tag === undefined) {
      return at;
    } else {
      throw new Error(`the output reader wrote a frame tagged ${tag} at byte ${at}: not one it writes`);
    }
  }
}

export interface NativeReadOptions {
  fromOffset: number;
  /** The first offset not read; until - from records are read at most. */
  untilOffset: number;
  idleMs: number;
  timeoutMs?: number;
  /** Every produced record has seq < produced: an output naming another is not decoded. */
  produced: number;
  passthrough: boolean;
}

/** Reads [fromOffset, untilOffset) of partition 0 as readTopic does (the same reader settings), frames to `on`; resolves with how many records came. */
export function readTopicNative(binary: string, bootstrap: string, topic: string, opts: NativeReadOptions, on: FrameHandlers): Promise<number> {
  const settings = Object.entries(READER_SETTINGS).flatMap(([k, v]) => ["-X", `${k}=${v}`]);
  const args = [
    "--bootstrap",
    bootstrap,
    "--topic",
    topic,
    "--from",
    String(opts.fromOffset),
    "--until",
    String(opts.untilOffset),
    "--idle-ms",
    String(opts.idleMs),
    "--timeout-ms",
    String(opts.timeoutMs ?? 600_000),
    "--produced",
    String(opts.produced),
    ...(opts.passthrough ? ["--passthrough"] : []),
    ...settings,
  ];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let count = 0;
  const counted: FrameHandlers = {
    decoded: (...a) => (count++, on.decoded(...a)),
    raw: (m) => (count++, on.raw(m)),
  };
  let pending: Buffer = Buffer.alloc(0);
  let failure: Error | undefined;
  const stderr: string[] = [];
  child.stderr.on("data", (d: Buffer) => stderr.push(d.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    if (failure) return;
    const buf = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    try {
      pending = buf.subarray(decodeFrames(buf, counted));
    } catch (error) {
      failure = error as Error;
      child.kill("SIGKILL");
    }
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      if (failure) return reject(failure);
      if (code !== 0) return reject(
        new Error(`the output reader ended (${signal ?? `exit ${code}`}) reading ${topic}: ${stderr.join("").trim().split("\n").slice(-3).join(" ")}`),
      );
      if (pending.length > 0) return reject(new Error(`the output reader's last frame of ${topic} was cut short (${pending.length} bytes)`));
      resolve(count);
    });
  });
}
