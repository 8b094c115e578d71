import type { Product } from "@bench/core";
import { confluentKafka } from "./product.ts";
import { confluentKafkaProfileRules } from "./profile-rules.ts";

export const products: Product[] = [{ ...confluentKafka, profileRules: confluentKafkaProfileRules }];
