import type { Product } from "@bench/core";
import { turbine, turbineTorch } from "./product.ts";
import { turbineProfileRules } from "./profile-rules.ts";

export const products: Product[] = [turbine, turbineTorch].map((p) => ({ ...p, profileRules: turbineProfileRules }));
