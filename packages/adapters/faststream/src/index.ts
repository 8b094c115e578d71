import type { Product } from "@bench/core";
import { faststream } from "./product.ts";

export const products: Product[] = [faststream];
