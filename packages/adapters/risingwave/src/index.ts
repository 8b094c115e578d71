import type { Product } from "@bench/core";
import { risingwave } from "./product.ts";

export const products: Product[] = [risingwave];
