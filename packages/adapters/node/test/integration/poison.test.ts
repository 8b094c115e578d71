/**
 * The node app against the dev broker with poison pills among the 256 generated fixtures (the
 * spelling cases after them): each pill is skipped and counted, every good record around it,
 * whatever its JSON spelling, is scored and republished, the app lives on and stops with 0.
 */
import { join } from "node:path";
import { cacheRoot } from "@bench/core";
import { describePoisonPills } from "@bench/core/testing";
import { nodeModel } from "../../src/product.ts";

describePoisonPills(nodeModel, { cacheDir: join(cacheRoot(), "node"), stopExit: { code: 0, signal: null }, timeoutMs: 300_000 });
