import type { Product } from "@bench/core";
import { quix } from "./product.ts";

export const products: Product[] = [quix];
