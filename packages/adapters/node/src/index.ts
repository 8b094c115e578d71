import { nodeModel, nodePassthrough } from "./product.ts";
import { nodeProfileRules } from "./profile-rules.ts";

export const products = [nodeModel, nodePassthrough].map((p) => ({ ...p, profileRules: nodeProfileRules }));
