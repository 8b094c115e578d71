import type { Product } from "@bench/core";
import { faststream } from "./product.ts";
import { faststreamProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...faststream, profileRules: faststreamProfileRules }];
