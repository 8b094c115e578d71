/**
 * The machine a results file was measured on. "AMD EPYC" alone does not tell two VMs apart,
 * and the same rows can cost very differently on two of them, so the CPU's family, model and
 * stepping and its widest vector extensions are kept too.
 */
import si from "systeminformation";
import type { HostInfo } from "./results/types.ts";

/** The vector extensions that decide which kernels a runtime (torch, onnxruntime, V8) picks. */
const SIMD_FLAGS = ["sse4_2", "avx", "avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile"];

export async function describeHost(): Promise<HostInfo> {
  const [cpu, mem, os, flags] = await Promise.all([si.cpu(), si.mem(), si.osInfo(), si.cpuFlags()]);
  const have = new Set(flags.split(/\s+/));
  return {
    cpu: `${cpu.manufacturer} ${cpu.brand}`.trim(),
    cpuId: `family ${cpu.family} model ${cpu.model} stepping ${cpu.stepping}`,
    simd: SIMD_FLAGS.filter((f) => have.has(f)).join(" "),
    cores: cpu.physicalCores,
    threads: cpu.cores,
    memoryMb: Math.round(mem.total / 1024 / 1024),
    kernel: os.kernel,
    os: `${os.distro} ${os.release}`.trim(),
  };
}
