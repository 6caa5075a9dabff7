/**
 * Runs Biome (format + lint) with the arguments given. Biome is one native binary per platform; the registry
 * this project installs from serves the Linux x64 build, installed as an optional dependency, so on other
 * platforms this says so and exits 0 instead of failing the tests.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export const BIOME = join(import.meta.dir, "..", "node_modules", "@biomejs", "cli-linux-x64", "biome");

if (import.meta.main) {
  if (!existsSync(BIOME)) {
    console.warn(`Biome is not installed for ${process.platform}-${process.arch}: lint and format checks skipped`);
    process.exit(0);
  }
  const proc = Bun.spawn([BIOME, ...process.argv.slice(2)], { stdout: "inherit", stderr: "inherit" });
  process.exit(await proc.exited);
}
