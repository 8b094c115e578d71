/**
 * What pip inside the root needs from the host to reach the registry the way the host does:
 * name resolution, the CA bundle(s), and the host's pip configuration (files and PIP_* env).
 * Each file is copied to the same absolute path inside the root, so the config's own paths
 * (cert = /etc/ssl/...) stay right.
 */
import { join } from "node:path";

export interface HostFileInputs {
  env: Record<string, string | undefined>;
  home: string;
  /** Output of `pip config list` on the host ("" when there is no pip). */
  pipConfigList: string;
}

/** Files to copy (absolute host paths; same path in the root). Existence is checked by the caller. */
export function hostFilesForRoot({ env, home, pipConfigList }: HostFileInputs): string[] {
  const files = ["/etc/resolv.conf", "/etc/ssl/certs/ca-certificates.crt"];
  // pip's configuration files, in pip's own search order.
  files.push("/etc/pip.conf", "/etc/xdg/pip/pip.conf");
  files.push(join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "pip", "pip.conf"), join(home, ".pip", "pip.conf"));
  if (env.PIP_CONFIG_FILE) files.push(env.PIP_CONFIG_FILE);
  // CA bundles named by pip's config or by the environment.
  for (const line of pipConfigList.split("\n")) {
    const m = /^\S*\.(?:cert|client-cert)='(.*)'$/.exec(line.trim());
    if (m?.[1]) files.push(m[1]);
  }
  for (const name of ["PIP_CERT", "PIP_CLIENT_CERT", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"]) {
    const value = env[name];
    if (value) files.push(value);
  }
  return [...new Set(files.filter((f) => f.startsWith("/")))];
}

/** The host's PIP_* variables, passed to every pip run in the root. */
export function pipEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith("PIP_") && value !== undefined) out[name] = value;
  }
  return out;
}
