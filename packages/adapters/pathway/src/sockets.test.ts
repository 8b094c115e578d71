import { isLocal, parseProcNetTcp, procAddress, tcpPeers } from "./sockets.ts";

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:8683 0100007F:9C43 01 00000000:00000000 00:00000000 00000000     0        0 123456 1 0000000000000000 20 4 30 10 -1
   1: 0F02000A:D4C2 22D8B85D:01BB 01 00000000:00000000 02:00000A1B 00000000     0        0 654321 2 0000000000000000 20 4 30 10 -1
`;

describe("reading a process's TCP peers from /proc", () => {
  it("decodes /proc's little-endian addresses", () => {
    expect(procAddress("0100007F")).toBe("127.0.0.1");
    expect(procAddress("22D8B85D")).toBe("93.184.216.34");
    expect(procAddress("00000000000000000000000001000000")).toBe("0000:0000:0000:0000:0000:0000:0000:0001");
  });

  it("reads each socket's inode and peer", () => {
    expect(parseProcNetTcp(TCP)).toEqual([
      { inode: "123456", remote: "127.0.0.1" },
      { inode: "654321", remote: "93.184.216.34" },
    ]);
  });

  it("tells loopback from the outside world", () => {
    expect(isLocal("127.0.0.1")).toBe(true);
    expect(isLocal("0000:0000:0000:0000:0000:0000:0000:0001")).toBe(true);
    expect(isLocal("93.184.216.34")).toBe(false);
  });

  it("reads this test's own process without throwing", () => {
    expect(Array.isArray(tcpPeers(process.pid))).toBe(true);
  });
});
