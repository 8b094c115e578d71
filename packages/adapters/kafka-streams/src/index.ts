import type { Product } from "@bench/core";
import { kafkaStreams } from "./product.ts";
import { kafkaStreamsProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...kafkaStreams, profileRules: kafkaStreamsProfileRules }];
