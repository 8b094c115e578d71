/**
 * Resolving Java artifacts with their runtime dependencies from Maven Central into the cache,
 * once (the broker, JVM rows' libraries). A throwaway pom lists what is wanted; `dependency:copy-dependencies` does the rest.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

export interface MavenArtifact {
  groupId: string;
  artifactId: string;
  version: string;
}

export function pomFor(artifacts: MavenArtifact[]): string {
  const deps = artifacts
    .map((a) => `<dependency><groupId>${a.groupId}</groupId><artifactId>${a.artifactId}</artifactId><version>${a.version}</version></dependency>`)
    .join("\n    ");
  return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench.local</groupId><artifactId>resolve</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    ${deps}
  </dependencies>
</project>
`;
}

/** Returns the folder holding every jar; resolves on first use only. */
export async function resolveJars(dir: string, artifacts: MavenArtifact[], log: (line: string) => void): Promise<string> {
  const libs = join(dir, "libs");
  const marker = join(dir, ".complete");
  if (existsSync(marker)) return libs;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "pom.xml"), pomFor(artifacts));
  log(`resolving ${artifacts.map((a) => `${a.artifactId}:${a.version}`).join(", ")} from Maven Central into ${dir}`);
  const result = await execa("mvn", ["-q", "-B", "dependency:copy-dependencies", "-DincludeScope=runtime", `-DoutputDirectory=${libs}`], {
    cwd: dir,
    reject: false,
    all: true,
  });
  if (result.exitCode !== 0 || !existsSync(libs) || readdirSync(libs).length === 0) {
    throw new Error(
      `mvn could not resolve ${artifacts.map((a) => a.artifactId).join(", ")} (exit ${result.exitCode}):\n` +
        `${String(result.all ?? "").split("\n").slice(-20).join("\n")}`,
    );
  }
  writeFileSync(marker, new Date().toISOString());
  return libs;
}
