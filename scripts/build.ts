import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const root = join(import.meta.dir, "..");
const out = join(root, "dist", "public");
const dev = process.argv.includes("--dev");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
if (existsSync(join(root, "public"))) cpSync(join(root, "public"), out, { recursive: true });

// Islands: one client entry, one chunk per island (production: minified and hashed; dev: readable, stable entry name).
const result = await Bun.build({
  entrypoints: [join(root, "islands", "client.tsx")],
  outdir: join(out, "islands"),
  target: "browser",
  splitting: true,
  minify: !dev,
  sourcemap: "linked",
  define: { "process.env.NODE_ENV": JSON.stringify(dev ? "development" : "production") },
  naming: { entry: dev ? "[name].[ext]" : "[name]-[hash].[ext]", chunk: "[name]-[hash].[ext]" },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const entry = result.outputs.find((o) => o.kind === "entry-point")!;
writeFileSync(join(out, "islands", "manifest.json"), JSON.stringify({ entry: basename(entry.path) }));
