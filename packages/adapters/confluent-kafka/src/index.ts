import type { Product } from "@bench/core";

// Work in progress: the row is being written.
export const products: Product[] = [];
