/**
 * The Debian mirror debootstrap fetches from, read from the host's own apt sources at run time:
 * the repo names no registry host, and a machine whose apt goes through another mirror gets
 * that one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** First http(s) URI of a "deb" entry, in deb822 (*.sources) or one-line (*.list) format. */
export function mirrorFromSources(text: string): string | undefined {
  // deb822: blank-line separated stanzas with Types: and URIs: fields.
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of stanza.split("\n")) {
      if (line.trimStart().startsWith("#")) continue;
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (m) fields.set((m[1] as string).toLowerCase(), (m[2] as string).trim());
    }
    const types = fields.get("types")?.split(/\s+/) ?? [];
    if (!types.includes("deb")) continue;
    const uri = fields.get("uris")?.split(/\s+/).find(isDebianArchive);
    if (uri) return uri;
  }
  // One-line: deb [options] URI suite components
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("deb ")) continue;
    const uri = line
      .replace(/^deb\s+(\[[^\]]*\]\s+)?/, "")
      .split(/\s+/)[0];
    if (uri && isDebianArchive(uri)) return uri;
  }
  return undefined;
}

/** The main archive, not the security one (whose suites debootstrap cannot bootstrap from). */
function isDebianArchive(uri: string): boolean {
  return /^https?:\/\//.test(uri) && !/security/.test(uri);
}

/** Reads /etc/apt/sources.list.d/*.sources, *.list, then /etc/apt/sources.list. */
export function hostDebianMirror(etcApt = "/etc/apt"): string | undefined {
  const files: string[] = [];
  const dir = join(etcApt, "sources.list.d");
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith(".sources") || name.endsWith(".list")) files.push(join(dir, name));
    }
  }
  files.push(join(etcApt, "sources.list"));
  for (const file of files) {
    if (!existsSync(file)) continue;
    const mirror = mirrorFromSources(readFileSync(file, "utf8"));
    if (mirror) return mirror;
  }
  return undefined;
}
