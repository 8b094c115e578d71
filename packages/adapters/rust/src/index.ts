import type { Product } from "@bench/core";
import { rust } from "./product.ts";
import { rustProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...rust, profileRules: rustProfileRules }];
