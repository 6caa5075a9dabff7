import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { IslandBoundary } from "../islands/lib/boundary";
import { I18nProvider } from "../islands/lib/i18n-context";
import { i18nFor } from "../src/i18n/server";

/** What the boundary renders once one of its children threw. */
function failedBoundary(lng: "en" | "pt" | "es") {
  const boundary = new IslandBoundary({ name: "Chat", children: <p>chat</p> });
  boundary.state = IslandBoundary.getDerivedStateFromError();
  return renderToStaticMarkup(<I18nProvider i18n={i18nFor(lng)}>{boundary.render()}</I18nProvider>);
}

describe("IslandBoundary", () => {
  test("a failed island shows a translated note and a reload button instead of nothing", () => {
    const en = failedBoundary("en");
    expect(en).toContain('role="alert"');
    expect(en).toContain("Something went wrong.");
    expect(en).toContain('<button type="button" class="button small">Reload the page</button>');
    expect(failedBoundary("pt")).toContain("Algo deu errado.");
    expect(failedBoundary("es")).toContain("Recargar la página");
    expect(en).not.toContain("chat");
  });
});
