import si from "systeminformation";
import type { HostInfo } from "./results/types.ts";

export async function describeHost(): Promise<HostInfo> {
  const [cpu, mem, os] = await Promise.all([si.cpu(), si.mem(), si.osInfo()]);
  return {
    cpu: `${cpu.manufacturer} ${cpu.brand}`.trim(),
    cores: cpu.physicalCores,
    threads: cpu.cores,
    memoryMb: Math.round(mem.total / 1024 / 1024),
    kernel: os.kernel,
    os: `${os.distro} ${os.release}`.trim(),
  };
}
