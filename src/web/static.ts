import { staticPlugin } from "@elysiajs/static";
import { STATIC_DIR } from "../paths";

/** Serves dist/public (CSS, favicon, built islands) under /public. */
export function publicAssets() {
  return staticPlugin({ assets: STATIC_DIR, prefix: "/public", alwaysStatic: false });
}
