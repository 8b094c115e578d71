import { nodeModel, nodePassthrough } from "./products.ts";

export const products = [nodeModel, nodePassthrough];
