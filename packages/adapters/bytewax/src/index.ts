import type { Product } from "@bench/core";
import { bytewax } from "./product.ts";
import { bytewaxProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...bytewax, profileRules: bytewaxProfileRules }];
