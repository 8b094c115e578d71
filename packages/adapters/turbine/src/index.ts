import type { Product } from "@bench/core";
import { turbine, turbineTorch } from "./product.ts";

export const products: Product[] = [turbine, turbineTorch];
