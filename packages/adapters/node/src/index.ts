import { nodeModel, nodePassthrough } from "./product.ts";

export const products = [nodeModel, nodePassthrough];
