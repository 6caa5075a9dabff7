import { useSignals } from "@preact/signals-react/runtime";
import type { ComponentType } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createI18n } from "../src/i18n/instance";
import { isLang } from "../src/i18n/shared";
import { setToken } from "./lib/api";
import { setBoot, type Boot } from "./lib/boot";
import { IslandBoundary } from "./lib/boundary";
import { I18nProvider } from "./lib/i18n-context";
import { connectSocket } from "./lib/socket";
import { dismiss, toasts } from "./lib/toast";
import { islandLoaders, type IslandName } from "./registry";

function Toaster() {
  useSignals();
  return (
    <>
      {toasts.value.map((t) => (
        // A click dismisses a toast early; every toast also goes by itself, so there is no keyboard equivalent to give.
        // biome-ignore lint/a11y/noStaticElementInteractions: see above
        // biome-ignore lint/a11y/useKeyWithClickEvents: see above
        <div
          key={t.id}
          className={`toast toast-${t.kind}`}
          role={t.kind === "error" ? "alert" : "status"}
          onClick={() => dismiss(t.id)}
        >
          {t.text}
          {t.action && (
            <button
              type="button"
              className="toast-action"
              onClick={(e) => {
                e.stopPropagation();
                dismiss(t.id);
                t.action?.run();
              }}
            >
              {t.action.label}
            </button>
          )}
        </div>
      ))}
    </>
  );
}

const boot = JSON.parse(document.getElementById("__boot")?.textContent ?? "{}") as Boot;
if (!isLang(boot.lng)) boot.lng = "en";
setBoot(boot);
setToken(boot.token);
const i18n = createI18n(boot.lng, boot.resources ?? {});

const toastHost = document.createElement("div");
toastHost.className = "toasts";
toastHost.setAttribute("aria-live", "polite");
// A manual popover sits in the top layer; shown again for each toast, it stays above a modal opened since.
toastHost.popover = "manual";
document.body.append(toastHost);
let shown = 0;
toasts.subscribe((list) => {
  if (toastHost.matches(":popover-open") && (list.length === 0 || list.length > shown)) toastHost.hidePopover();
  if (list.length > 0 && !toastHost.matches(":popover-open")) toastHost.showPopover();
  shown = list.length;
});
createRoot(toastHost).render(
  <I18nProvider i18n={i18n}>
    <Toaster />
  </I18nProvider>,
);

if (boot.token) connectSocket();

// A page being left aborts the islands still loading: their failed imports are not errors of the page.
let leaving = false;
for (const type of ["beforeunload", "pagehide"]) addEventListener(type, () => (leaving = true));

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const name = el.dataset.island as IslandName;
  const load = islandLoaders[name];
  if (!load) continue;
  const props = JSON.parse(
    document.querySelector(`script[data-props-for="${el.dataset.islandId}"]`)?.textContent || "{}",
  );
  load().then(
    ({ default: C }) => {
      const Island = C as ComponentType<Record<string, unknown>>;
      hydrateRoot(
        el,
        <I18nProvider i18n={i18n}>
          <IslandBoundary name={name} onMount={() => (el.dataset.hydrated = "true")}>
            <Island {...props} />
          </IslandBoundary>
        </I18nProvider>,
        { identifierPrefix: `${el.dataset.islandId}-` },
      );
    },
    (error) => {
      if (!leaving) console.error(`the ${name} island could not load`, error);
    },
  );
}
