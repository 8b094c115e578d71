import type { Product } from "@bench/core";
import { quix } from "./product.ts";
import { quixProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...quix, profileRules: quixProfileRules }];
