import type { i18n } from "i18next";
import type { ComponentType } from "react";
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
} satisfies Record<IslandName, ComponentType<any>>;

/** Per-request island renderer: each island is its own React root with prefix `i<n>-`, like the client hydrates it. */
export function islandRenderer(i18n: i18n) {
  let next = 0;
  return function Island<N extends IslandName>({
    name,
    props,
    className,
  }: {
    name: N;
    props?: Record<string, unknown>;
    className?: string;
  }) {
    const id = `i${next++}`;
    const C = serverIslands[name] as ComponentType<any>;
    const html = renderToString(
      <I18nProvider i18n={i18n}>
        <IslandBoundary name={name}>
          <C {...(props ?? {})} />
        </IslandBoundary>
      </I18nProvider>,
      { identifierPrefix: `${id}-` },
    );
    // `html` is React's own rendering of the island (every text escaped), placed as is so hydration matches it.
    return (
      <div
        className={className}
        data-island={name}
        data-island-id={id}
        data-props={JSON.stringify(props ?? {})}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: markup produced by renderToString, not by users
        dangerouslySetInnerHTML={{ __html: html }}
      />
    );
  };
}

export type IslandComponent = ReturnType<typeof islandRenderer>;
