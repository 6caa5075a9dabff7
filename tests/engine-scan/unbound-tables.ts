/**
 * Preloaded by the load-time scan (tests/engine-choice.test.ts): src/db/tables.ts loads with no table bound, as
 * if no engine had been chosen yet, so a module that reads a table while it loads fails to load.
 */
import { plugin } from "bun";

plugin({
  name: "unbound tables",
  setup(build) {
    build.onLoad({ filter: /src\/db\/tables\.ts$/ }, async ({ path }) => ({
      contents: (await Bun.file(path).text()).replace(/= sqlite\.(\w+);/g, "= undefined as never;"),
      loader: "ts",
    }));
  },
});
