import type { Product } from "@bench/core";
import { spark } from "./product.ts";

export const products: Product[] = [spark];
