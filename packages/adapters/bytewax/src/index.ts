import type { Product } from "@bench/core";
import { bytewax } from "./product.ts";

export const products: Product[] = [bytewax];
