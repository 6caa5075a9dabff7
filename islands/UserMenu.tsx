import { useState } from "react";
import { LANGUAGES, LANG_COOKIE, type Lang } from "../src/i18n/shared";
import { THEMES, THEME_COOKIE, type Theme } from "../src/shared/theme";
import { ProfileModal } from "./agent/ProfileModal";
import { api } from "./lib/api";
import { getBoot } from "./lib/boot";
import { useI18n, useT } from "./lib/i18n-context";
import { MenuButton } from "./lib/menu-button";
import { closeSocket } from "./lib/socket";

const YEAR = 365 * 24 * 3600;

/**
 * App-bar user menu: profile summary, interface language (pt/en/es), colour theme (system/light/dark; both
 * remembered in cookies the server reads when it renders the page), logout and logout on every device.
 */
export default function UserMenu({ name, email }: { name: string; email: string }) {
  const t = useT();
  const lng = useI18n().language as Lang;
  const [profile, setProfile] = useState(false);
  const [theme, setTheme] = useState<Theme>(getBoot()?.theme ?? "system");

  function chooseLanguage(l: Lang) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers the inbox supports
    document.cookie = `${LANG_COOKIE}=${l}; path=/; max-age=${YEAR}; samesite=lax`;
    location.reload();
  }

  function chooseTheme(next: Theme) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers the inbox supports
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=${YEAR}; samesite=lax`;
    if (next === "system") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = next;
    setTheme(next);
  }

  /** Logout ends this device's session; `everywhere` ends every session of the user, on every device. */
  async function logout(everywhere = false) {
    try {
      if (everywhere) await api("/auth/logout-all", { method: "POST", noAuthRedirect: true });
      else await api("/auth/logout", { method: "DELETE", noAuthRedirect: true });
    } finally {
      closeSocket();
      location.assign("/login");
    }
  }

  return (
    <MenuButton
      className="user-menu"
      buttonClassName="icon-button on-dark"
      label={t("menu.userMenu")}
      haspopup="menu"
      button={
        <span className="avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      }
      menuRole="menu"
      menu={(close) => (
        <>
          <button type="button" role="menuitem" aria-haspopup="dialog" onClick={() => (setProfile(true), close())}>
            {t("menu.profile")}
          </button>
          {/* biome-ignore lint/a11y/useSemanticElements: a group of menu items, not form fields */}
          <div className="menu-group" role="group" aria-label={t("menu.language")}>
            <span className="menu-label">{t("menu.language")}</span>
            {LANGUAGES.map((l) => (
              <button
                key={l}
                type="button"
                role="menuitemradio"
                aria-checked={l === lng}
                onClick={() => chooseLanguage(l)}
              >
                {t(`languages.${l}`)}
              </button>
            ))}
          </div>
          {/* biome-ignore lint/a11y/useSemanticElements: a group of menu items, not form fields */}
          <div className="menu-group" role="group" aria-label={t("menu.theme")}>
            <span className="menu-label">{t("menu.theme")}</span>
            {THEMES.map((th) => (
              <button
                key={th}
                type="button"
                role="menuitemradio"
                aria-checked={th === theme}
                onClick={() => chooseTheme(th)}
              >
                {t(`menu.themes.${th}`)}
              </button>
            ))}
          </div>
          <button type="button" role="menuitem" onClick={() => void logout()}>
            {t("menu.logout")}
          </button>
          <button type="button" role="menuitem" onClick={() => void logout(true)}>
            {t("menu.logoutEverywhere")}
          </button>
        </>
      )}
      after={
        profile &&
        getBoot()?.user && (
          <ProfileModal userId={getBoot()!.user!.id} name={name} email={email} onClose={() => setProfile(false)} />
        )
      }
    />
  );
}
