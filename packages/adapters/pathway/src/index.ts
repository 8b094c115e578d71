import type { Product } from "@bench/core";
import { pathway } from "./product.ts";
import { pathwayProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...pathway, profileRules: pathwayProfileRules }];
