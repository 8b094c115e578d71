import type { Product } from "@bench/core";
import { flink } from "./product.ts";

export const products: Product[] = [flink];
