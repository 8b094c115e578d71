/**
 * Where a row's model runs. Embedded, the default: inside the row's own process, as every row
 * has always run it. Served: the row sends each batch it would score embedded to a model server
 * over the Open Inference Protocol (KServe v2) on gRPC, and gets the risks back; the server is
 * the bench's own (started and sampled beside the row, model-server.ts) or a user's
 * (`--model-server`, whose CPU the bench cannot see).
 */
export const SERVINGS = ["embedded", "served"] as const;
export type Serving = (typeof SERVINGS)[number];
export const DEFAULT_SERVING: Serving = "embedded";

/**
 * Whether a row can call a model server instead of its own model, and how; or why not. `how`
 * names the client and what one call carries.
 */
export type ServedOffer = { offered: true; how: string } | { offered: false; why: string };

/** A row not run served keeps this reason, which the page reads back to list it apart. */
export const NOT_SERVED = "calls no model server: ";

export function parseServing(value: string): Serving {
  const found = SERVINGS.find((s) => s === value);
  if (!found) throw new Error(`unknown serving ${JSON.stringify(value)}; known: ${SERVINGS.join(", ")}`);
  return found;
}

/**
 * The gRPC target ("host:port") of a model server the user names: host:port, or a grpc:// URL.
 * Anything else (an http:// URL, a path, a missing or impossible port) is refused with the reason,
 * since a row's gRPC client would only fail later and less clearly.
 */
export function parseModelServerUrl(value: string): string {
  const target = value.startsWith("grpc://") ? value.slice("grpc://".length) : value;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})\/?$/.exec(target);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) {
    const what = "give host:port or grpc://host:port (the Open Inference Protocol's gRPC port)";
    throw new Error(`--model-server ${JSON.stringify(value)} is not a gRPC address: ${what}`);
  }
  return `${match[1]}:${port}`;
}
