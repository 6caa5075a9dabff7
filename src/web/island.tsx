import type { i18n } from "i18next";
import type { ComponentProps, ComponentType } from "react";
import { renderToString } from "react-dom/server";
import Chat from "../../islands/Chat";
import ConnectionsBadge from "../../islands/ConnectionsBadge";
import { IslandBoundary } from "../../islands/lib/boundary";
import { I18nProvider } from "../../islands/lib/i18n-context";
import LoginForm from "../../islands/LoginForm";
import NavToggle from "../../islands/NavToggle";
import NotificationsBell from "../../islands/NotificationsBell";
import type { IslandName } from "../../islands/registry";
import SandboxPhone from "../../islands/SandboxPhone";
import SignupForm from "../../islands/SignupForm";
import TicketsManager from "../../islands/TicketsManager";
import UserMenu from "../../islands/UserMenu";
import { agentIslands } from "./pages/agent-islands";
import { scriptJson } from "./render";
import { adminIslands } from "./pages/admin-islands";

const serverIslands = {
  LoginForm,
  SignupForm,
  UserMenu,
  NavToggle,
  NotificationsBell,
  TicketsManager,
  Chat,
  SandboxPhone,
  ConnectionsBadge,
  ...agentIslands,
  ...adminIslands,
} satisfies Record<IslandName, ComponentType<never>>;

/** The props of island `N`, as its component declares them. */
export type IslandProps<N extends IslandName> = ComponentProps<(typeof serverIslands)[N]>;

/** Keys of `T` that must be given. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** `<Island>`'s attributes: `props` is checked against the island's component and required when it has required props. */
export type IslandAttributes<N extends IslandName> = { name: N; className?: string } & ([
  RequiredKeys<IslandProps<N>>,
] extends [never]
  ? { props?: IslandProps<N> }
  : { props: IslandProps<N> });

/**
 * The app bar's islands render from their props and the language alone (they read no server state), so their
 * markup is kept per user, language and place instead of rendered on every page: each render of an island costs
 * React's setting up of a whole render besides the markup.
 */
const SAME_MARKUP_FOR_SAME_PROPS = new Set<IslandName>([
  "NavToggle",
  "NotificationsBell",
  "UserMenu",
  "ConnectionsBadge",
]);
const KEPT_MARKUPS = 512;
const keptMarkup = new Map<string, string>();

function keep(key: string, html: string) {
  if (keptMarkup.size >= KEPT_MARKUPS) keptMarkup.delete(keptMarkup.keys().next().value!);
  keptMarkup.set(key, html);
}

/** Per-request island renderer: each island is its own React root with prefix `i<n>-`, like the client hydrates it. */
export function islandRenderer(i18n: i18n) {
  let next = 0;
  return function Island<N extends IslandName>({ name, props, className }: IslandAttributes<N>) {
    const id = `i${next++}`;
    const json = scriptJson(props ?? {});
    const key = SAME_MARKUP_FOR_SAME_PROPS.has(name) ? `${name} ${i18n.language} ${id} ${json}` : undefined;
    let html = key === undefined ? undefined : keptMarkup.get(key);
    if (html === undefined) {
      const C = serverIslands[name] as ComponentType<Record<string, unknown>>;
      html = renderToString(
        <I18nProvider i18n={i18n}>
          <IslandBoundary name={name}>
            <C {...(props ?? {})} />
          </IslandBoundary>
        </I18nProvider>,
        { identifierPrefix: `${id}-` },
      );
      if (key !== undefined) keep(key, html);
    }
    // `html` is React's own rendering of the island (every text escaped), placed as is so hydration matches it.
    // The props travel in a JSON script beside the island rather than in an attribute, where every quote of a
    // first page of tickets would be escaped (and unescaped again) as `&quot;`.
    return (
      <>
        <script
          type="application/json"
          data-props-for={id}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON escaped by scriptJson so it cannot close the tag
          dangerouslySetInnerHTML={{ __html: json }}
        />
        <div
          className={className}
          data-island={name}
          data-island-id={id}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: markup produced by renderToString, not by users
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </>
    );
  };
}

export type IslandComponent = ReturnType<typeof islandRenderer>;
