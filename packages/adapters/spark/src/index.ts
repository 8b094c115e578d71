import type { Product } from "@bench/core";
import { spark } from "./product.ts";
import { sparkProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...spark, profileRules: sparkProfileRules }];
