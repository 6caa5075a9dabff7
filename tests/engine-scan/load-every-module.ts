/** Loads every server module and prints, one per line, those that failed to load and why. */
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
// The entry points run the server or a command as they load; every module they reach is loaded here anyway.
const entryPoints = new Set(["src/start.ts", "src/server.ts", "src/cli.ts"]);
const modules = [...new Bun.Glob("src/**/*.{ts,tsx}").scanSync({ cwd: root })].filter((f) => !entryPoints.has(f));
for (const file of modules.sort()) {
  try {
    await import(join(root, file));
  } catch (error) {
    console.log(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(0);
