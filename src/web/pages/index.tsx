import { Elysia } from "elysia";
import type { ReactNode } from "react";
import type { AppDeps } from "../../deps";
import { LANG_COOKIE, pickLang, type Lang } from "../../i18n/shared";
import { i18nFor, resourcesFor } from "../../i18n/server";
import { REFRESH_COOKIE } from "../../modules/auth/index";
import { sessionFromRefreshToken } from "../../modules/auth/service";
import type { Tokens } from "../../modules/auth/tokens";
import { pickTheme, THEME_COOKIE } from "../../shared/theme";
import { getSetting } from "../../modules/settings/service";
import type { BootUser } from "../../../islands/lib/boot";
import { AppFrame } from "../layout/AppFrame";
import { AuthFrame } from "../layout/AuthFrame";
import { renderPage } from "../render";
import { type SignedIn, ticketsPage } from "./tickets";
import { agentPage, isAgentPath } from "./agent";
import { adminPage, isAdminPage } from "./admin";
import { isAdmin } from "../../shared/permissions";
import { someConnectionNeedsAttention } from "../../modules/connections/lookup";
import { firstRunState } from "../../modules/dashboard/onboarding";

/**
 * React's server renderer and the islands' code (about half of the server's own code) load with the first page
 * served, not at start: an API-only or not-yet-visited server neither holds them nor parses them while starting.
 */
async function islandRenderer(i18n: Parameters<typeof import("../island").islandRenderer>[0]) {
  return (await (islands ??= import("../island"))).islandRenderer(i18n);
}

let islands: Promise<typeof import("../island")> | undefined;

/** Private routes served by this plugin; each renders inside the app frame. */
export const PRIVATE_ROUTES = [
  "/",
  "/tickets",
  "/tickets/:ticketId",
  "/ticketfind/:phone",
  "/connections",
  "/contacts",
  "/users",
  "/quickAnswers",
  "/Settings",
  "/webhooks",
  "/Queues",
  "/tags",
  "/schedules",
  "/reports",
  "/BulkMessage",
  "/ShippingReport",
  "/SettingsMessage",
  "/sandbox",
] as const;

interface PageRequest {
  request: Request;
  cookie: Record<string, { value?: unknown } | undefined>;
}

const redirect = (to: string) =>
  new Response(null, { status: 302, headers: { location: to, "cache-control": "no-store" } });

/**
 * Server-rendered pages. A page GET authenticates with the refresh cookie and embeds a fresh access token in
 * the boot JSON; public pages send a logged-in user to /, private pages send everyone else to /login.
 */
export function pagesRoutes(deps: AppDeps, tokens: Tokens) {
  async function session({ request, cookie }: PageRequest) {
    const lng: Lang = pickLang(
      request.headers.get("accept-language"),
      cookie[LANG_COOKIE]?.value as string | undefined,
    );
    const raw = cookie[REFRESH_COOKIE]?.value;
    let user: BootUser | null = null;
    let account: SignedIn | null = null;
    let token: string | null = null;
    if (typeof raw === "string" && raw) {
      try {
        const { user: row, familyId, queueIds } = await sessionFromRefreshToken(deps, tokens, raw, { rotate: false });
        account = { row, queueIds: queueIds ?? [] };
        user = {
          id: row.id,
          name: row.name,
          email: row.email,
          profile: row.profile as BootUser["profile"],
          // The page's socket brings a user whose availability follows their sockets online as it opens.
          availability: row.availabilityChoice === "online" ? "online" : row.availability,
        };
        token = await tokens.signAccess(row, familyId);
      } catch {
        // An expired or revoked cookie is the same as none: the visitor is logged out.
      }
    }
    return { lng, user, account, token, i18n: i18nFor(lng), theme: pickTheme(cookie[THEME_COOKIE]?.value) };
  }

  async function privatePage(ctx: PageRequest & { params?: Record<string, string> }) {
    const s = await session(ctx);
    if (!s.user || !s.account) return redirect("/login");
    const user = s.user;
    const t = s.i18n.t;
    const path = new URL(ctx.request.url).pathname;
    // The sandbox is a dev/demo page: admins only, and only while the sandbox network is enabled.
    if (path === "/sandbox" && (!isAdmin(user.profile) || !deps.config.sandbox)) return redirect("/");
    // Read while the page's own data is read (on PostgreSQL each query is a round trip); an admin's tickets page
    // reads it with its first-run checklist, in one statement.
    const isTicketsPage = path === "/tickets" || path.startsWith("/tickets/");
    const firstRun = isTicketsPage && isAdmin(user.profile) ? firstRunState(deps.db, deps.config.sandbox) : undefined;
    const connectionWarning = firstRun
      ? firstRun.then((state) => state.connectionWarning)
      : isAdmin(user.profile) && someConnectionNeedsAttention(deps.db);
    const Island = await islandRenderer(s.i18n);
    let main: ReactNode;
    if (path === "/sandbox") {
      main = (
        <section className="page">
          <h1 className="page-title">{t("sandbox.title")}</h1>
          <Island name="SandboxPhone" />
        </section>
      );
    } else if (isTicketsPage) {
      const ticketId =
        ctx.params?.ticketId && /^\d{1,15}$/.test(ctx.params.ticketId) ? Number(ctx.params.ticketId) : null;
      main = await ticketsPage({
        deps,
        Island,
        user,
        account: s.account,
        ticketId,
        query: new URL(ctx.request.url).searchParams,
        firstRun,
      });
    } else if (isAdminPage(path)) {
      main = await adminPage({ deps, Island, t, user, path, sandbox: deps.config.sandbox });
    } else if (isAgentPath(path)) {
      main = await agentPage({ deps, Island, t, user, path, params: ctx.params });
    } else {
      main = (
        <section className="empty-state">
          <h1>{t("page.welcome", { name: user.name })}</h1>
          <p>{t("page.comingSoon")}</p>
        </section>
      );
    }
    return renderPage({
      title: t("app.title"),
      boot: { lng: s.lng, resources: resourcesFor(s.lng), token: s.token, user, theme: s.theme },
      body: (
        <AppFrame
          t={t}
          user={user}
          path={path}
          Island={Island}
          sandbox={deps.config.sandbox}
          connectionWarning={await connectionWarning}
        >
          {main}
        </AppFrame>
      ),
    });
  }

  let app = new Elysia()
    .get("/login", async (ctx) => {
      const s = await session(ctx);
      if (s.user) return redirect("/");
      const Island = await islandRenderer(s.i18n);
      return renderPage({
        title: `${s.i18n.t("login.title")} · ${s.i18n.t("app.title")}`,
        boot: { lng: s.lng, resources: resourcesFor(s.lng), token: null, user: null, theme: s.theme },
        body: (
          <AuthFrame title={s.i18n.t("login.title")} brand={s.i18n.t("app.title")}>
            <Island name="LoginForm" />
          </AuthFrame>
        ),
      });
    })
    .get("/signup", async (ctx) => {
      const s = await session(ctx);
      if (s.user) return redirect("/");
      const Island = await islandRenderer(s.i18n);
      return renderPage({
        title: `${s.i18n.t("signup.title")} · ${s.i18n.t("app.title")}`,
        boot: { lng: s.lng, resources: resourcesFor(s.lng), token: null, user: null, theme: s.theme },
        body: (
          <AuthFrame title={s.i18n.t("signup.title")} brand={s.i18n.t("app.title")}>
            <Island name="SignupForm" props={{ enabled: (await getSetting(deps.db, "userCreation")) === "enabled" }} />
          </AuthFrame>
        ),
      });
    });
  for (const route of PRIVATE_ROUTES) app = app.get(route, privatePage) as unknown as typeof app;
  return app;
}
