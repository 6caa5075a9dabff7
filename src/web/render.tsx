import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ReactNode } from "react";
import type { Boot } from "../../islands/lib/boot";
import type { Theme } from "../shared/theme";
import { STATIC_DIR } from "../paths";

let manifest: { entry: string; css?: string } | null = null;

/** The built client entry (read once from dist/public/islands/manifest.json). */
export function clientEntry(): string {
  if (!manifest) {
    try {
      manifest = JSON.parse(readFileSync(join(STATIC_DIR, "islands", "manifest.json"), "utf8"));
    } catch {
      return "/public/islands/client.js";
    }
  }
  return `/public/islands/${manifest!.entry}`;
}

/** JSON safe inside a `<script>` element: `<` becomes `\u003c`, so no `</script>` or `<!--` can appear. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** React's server renderer, loaded with the first page served (see pages/index.tsx) and kept. */
let reactServer: Promise<typeof import("react-dom/server")> | undefined;

/**
 * A full HTML document: shell, page body, boot JSON and the client entry; never cached. A light or dark theme is
 * set on <html> here, so the page paints in it from the start; "system" leaves it to the stylesheet. The body is
 * rendered to one string (its islands are strings already): streaming it wrote each of its many small chunks
 * through its own encoding.
 */
export async function renderPage({
  title,
  boot,
  body,
}: {
  title: string;
  boot: Boot;
  body: ReactNode;
}): Promise<Response> {
  const theme: Theme = boot.theme ?? "system";
  const { renderToString } = await (reactServer ??= import("react-dom/server"));
  const html = renderToString(
    <html lang={boot.lng} data-theme={theme === "system" ? undefined : theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{title}</title>
        <link rel="icon" href="/public/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/public/app.css" />
      </head>
      <body>
        {body}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON escaped by scriptJson so it cannot close the tag */}
        <script id="__boot" type="application/json" dangerouslySetInnerHTML={{ __html: bootJson(boot) }} />
        <script type="module" src={clientEntry()} />
      </body>
    </html>,
  );
  return new Response(`<!DOCTYPE html>${html}`, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Each language's translations as boot JSON, serialised once: they are most of the boot JSON of every page. */
const resourcesJson = new WeakMap<object, string>();

/** `scriptJson(boot)`, with its translations' JSON kept from the first page that sent them. */
function bootJson({ resources, ...rest }: Boot): string {
  let json = resourcesJson.get(resources);
  if (json === undefined) resourcesJson.set(resources, (json = scriptJson(resources)));
  return `${scriptJson(rest).slice(0, -1)}${Object.keys(rest).length ? "," : ""}"resources":${json}}`;
}
