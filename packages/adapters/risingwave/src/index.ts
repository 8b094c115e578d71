import type { Product } from "@bench/core";
import { risingwave } from "./product.ts";
import { risingwaveProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...risingwave, profileRules: risingwaveProfileRules }];
