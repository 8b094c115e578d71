/** rounds/knee-moves.ts reads DOWN_SHARE here; the one source is constants.ts. */
export { DOWN_SHARE } from "./constants.ts";
