import { createServer } from "node:net";
import { listeningInodes, localListenerPid } from "./local-pid.ts";

describe("the local broker's pid", () => {
  it("finds listening sockets on a port in /proc/net/tcp text, and only listening ones", () => {
    const text = [
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
      "   0: 0100007F:A951 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 123456 1 0000000000000000 100 0 0 10 0",
      "   1: 0100007F:A951 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 654321 1 0000000000000000 20 4 30 10 -1",
      "   2: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777777 1 0000000000000000 100 0 0 10 0",
    ].join("\n");
    expect(listeningInodes(text, 0xa951)).toEqual(["123456"]);
    expect(listeningInodes(text, 8080)).toEqual(["777777"]);
    expect(listeningInodes(text, 9092)).toEqual([]);
  });

  it("finds this process behind a port it listens on, and nothing for a remote host", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      expect(localListenerPid(`127.0.0.1:${port}`)).toBe(process.pid);
      expect(localListenerPid(`broker.example:${port}`)).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
