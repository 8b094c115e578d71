import type { Product } from "@bench/core";
import { flink } from "./product.ts";
import { flinkProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...flink, profileRules: flinkProfileRules }];
