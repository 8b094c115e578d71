/**
 * Building the Streams app: the pinned jars resolved once into the cache (core's resolveJars),
 * then the app's few classes compiled with the JDK's javac into a folder keyed by a hash of the
 * sources and the pins, so an edit rebuilds and an unchanged app is compiled once.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { execa } from "execa";
import { resolveJars, type MavenArtifact } from "@bench/core";

export const APP_SOURCES = join(import.meta.dirname, "..", "app", "src");
export const MAIN_CLASS = "bench.ScoreApp";

/** Every .java file under the folder, sorted, so the build key does not depend on listing order. */
export function javaSources(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".java"))
    .map((f) => join(dir, f))
    .sort();
}

/** 16 hex digits over the pins and each source's path (relative) and text. */
export function buildKey(artifacts: readonly MavenArtifact[], sources: ReadonlyArray<{ path: string; text: string }>): string {
  const hash = createHash("sha256");
  for (const a of artifacts) hash.update(`${a.groupId}:${a.artifactId}:${a.version}\n`);
  for (const s of sources) hash.update(`${s.path}\0${s.text}\0`);
  return hash.digest("hex").slice(0, 16);
}

/** Only the pins: the jars' folder changes when they do. */
export function jarsKey(artifacts: readonly MavenArtifact[]): string {
  return buildKey(artifacts, []);
}

export interface BuiltApp {
  /** The java -cp value: the compiled classes, then every resolved jar. */
  classpath: string;
  classesDir: string;
  /** ONNX Runtime's native libraries, unpacked once (-Donnxruntime.native.path). */
  onnxNativeDir: string;
}

const ONNX_NATIVE = "ai/onnxruntime/native/linux-x64";
const ONNX_LIBS = ["libonnxruntime.so", "libonnxruntime4j_jni.so"];

/**
 * ONNX Runtime's jar otherwise unpacks its 28 MB of native libraries into java.io.tmpdir at
 * every start and deletes them in a JVM exit hook, which neither a kill -9 nor the app's halt()
 * runs: unpacked once into the cache, they are loaded from there.
 */
export async function unpackOnnxNative(libs: string, cacheDir: string, javaHome: string): Promise<string> {
  const jar = readdirSync(libs).find((f) => /^onnxruntime-[\d.]+\.jar$/.test(f));
  if (!jar) throw new Error(`no onnxruntime jar in ${libs}`);
  const root = join(cacheDir, jar.replace(/\.jar$/, "-native"));
  const dir = join(root, ONNX_NATIVE);
  if (ONNX_LIBS.every((l) => existsSync(join(dir, l)))) return dir;
  mkdirSync(root, { recursive: true });
  const result = await execa(
    join(javaHome, "bin", "jar"),
    ["xf", join(libs, jar), ...ONNX_LIBS.map((l) => `${ONNX_NATIVE}/${l}`)],
    { cwd: root, reject: false, all: true },
  );
  if (result.exitCode !== 0 || !ONNX_LIBS.every((l) => existsSync(join(dir, l)))) throw new Error(
    `unpacking ONNX Runtime's native libraries from ${jar} failed: ${String(result.all ?? "")}`,
  );
  return dir;
}

export async function buildApp(cacheDir: string, artifacts: readonly MavenArtifact[], javaHome: string, log: (line: string) => void): Promise<BuiltApp> {
  const libs = await resolveJars(join(cacheDir, `jars-${jarsKey(artifacts)}`), [...artifacts], log);
  const files = javaSources(APP_SOURCES);
  const key = buildKey(artifacts, files.map((f) => ({ path: relative(APP_SOURCES, f), text: readFileSync(f, "utf8") })));
  const classesDir = join(cacheDir, `classes-${key}`);
  const classpath = `${classesDir}:${join(libs, "*")}`;
  const onnxNativeDir = await unpackOnnxNative(libs, cacheDir, javaHome);
  if (existsSync(classesDir)) return { classpath, classesDir, onnxNativeDir };
  // Compiled beside the final folder and renamed into place: a half-built folder is never taken as built.
  const building = `${classesDir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  log(`compiling ${files.length} app classes into ${classesDir}`);
  const result = await execa(
    join(javaHome, "bin", "javac"),
    ["-Xlint:all", "-Werror", "--release", "17", "-d", building, "-cp", join(libs, "*"), ...files],
    { reject: false, all: true },
  );
  if (result.exitCode !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`javac failed (exit ${result.exitCode}):\n${String(result.all ?? "").split("\n").slice(-30).join("\n")}`);
  }
  rmSync(classesDir, { recursive: true, force: true });
  renameSync(building, classesDir);
  return { classpath, classesDir, onnxNativeDir };
}
