import { hostFilesForRoot, pipEnvironment } from "./host-files.ts";

describe("hostFilesForRoot", () => {
  it("copies resolv.conf, the CA bundle, pip's config files and the certs pip's config names", () => {
    const files = hostFilesForRoot({
      env: { PIP_CONFIG_FILE: "/srv/pip.ini", PIP_CERT: "/etc/ssl/certs/ca-certificates.crt", SSL_CERT_FILE: "/opt/corp-ca.pem" },
      home: "/root",
      pipConfigList: ":env:.cert='/etc/ssl/certs/ca-certificates.crt'\nglobal.cert='/usr/local/share/ca.pem'\nglobal.index-url='x'\n",
    });
    expect(files).toEqual([
      "/etc/resolv.conf",
      "/etc/ssl/certs/ca-certificates.crt",
      "/etc/pip.conf",
      "/etc/xdg/pip/pip.conf",
      "/root/.config/pip/pip.conf",
      "/root/.pip/pip.conf",
      "/srv/pip.ini",
      "/usr/local/share/ca.pem",
      "/opt/corp-ca.pem",
    ]);
  });
  it("follows XDG_CONFIG_HOME and drops relative paths", () => {
    const files = hostFilesForRoot({ env: { XDG_CONFIG_HOME: "/cfg", REQUESTS_CA_BUNDLE: "rel.pem" }, home: "/home/u", pipConfigList: "" });
    expect(files).toContain("/cfg/pip/pip.conf");
    expect(files).not.toContain("rel.pem");
  });
});

describe("pipEnvironment", () => {
  it("keeps only PIP_* variables", () => {
    expect(pipEnvironment({ PIP_DEFAULT_TIMEOUT: "180", PATH: "/bin", PIPX: "no", PIP_X: undefined })).toEqual({ PIP_DEFAULT_TIMEOUT: "180" });
  });
});
