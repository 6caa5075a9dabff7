import { type ReactNode, useCallback, useState } from "react";
import { LANGUAGES, LANG_COOKIE, type Lang } from "../src/i18n/shared";
import { AVAILABILITIES, type Availability } from "../src/shared/contracts/users";
import { THEMES, THEME_COOKIE, type Theme } from "../src/shared/theme";
import { ProfileModal } from "./agent/ProfileModal";
import { api, callApi } from "./lib/api";
import { AvailabilityDot } from "./lib/availability";
import { getBoot } from "./lib/boot";
import { errorText } from "./lib/errors";
import { useI18n, useT } from "./lib/i18n-context";
import { useLive } from "./lib/live";
import { MenuButton } from "./lib/menu-button";
import { closeSocket } from "./lib/socket";
import { toast } from "./lib/toast";
import { ShortcutsDialog, useShortcutsKey } from "./ShortcutsDialog";

const YEAR = 365 * 24 * 3600;

/**
 * App-bar user menu: one's availability (its dot on the avatar, kept live), profile summary, interface language
 * (pt/en/es), colour theme (system/light/dark; both remembered in cookies the server reads when it renders the
 * page), the keyboard shortcuts (also opened with "?" anywhere on the page), logout and logout on every device.
 */
export default function UserMenu({
  userId,
  name,
  email,
  availability: initialAvailability,
}: {
  userId: number;
  name: string;
  email: string;
  availability: Availability;
}) {
  const t = useT();
  const lng = useI18n().language as Lang;
  const [profile, setProfile] = useState(false);
  const [theme, setTheme] = useState<Theme>(getBoot()?.theme ?? "system");
  const [availability, setAvailability] = useState(initialAvailability);
  const [shortcuts, setShortcuts] = useState(false);
  useShortcutsKey(useCallback(() => setShortcuts(true), []));

  useLive(["user"], (payload) => {
    if ("user" in payload && payload.user.id === userId) setAvailability(payload.user.availability);
  });

  async function chooseAvailability(next: Availability) {
    try {
      const user = await callApi("PUT /users/:id/availability", {
        params: { id: userId },
        body: { availability: next },
      });
      setAvailability(user.availability);
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

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
          <AvailabilityDot availability={availability} />
        </span>
      }
      menuRole="menu"
      menu={(close) => (
        <>
          <MenuRadios
            label={t("menu.availability")}
            values={AVAILABILITIES}
            checked={availability}
            text={(a) => (
              <>
                <AvailabilityDot availability={a} />
                {t(`availability.${a}`)}
              </>
            )}
            onChoose={(a) => (void chooseAvailability(a), close())}
          />
          <button type="button" role="menuitem" aria-haspopup="dialog" onClick={() => (setProfile(true), close())}>
            {t("menu.profile")}
          </button>
          <MenuRadios
            label={t("menu.language")}
            values={LANGUAGES}
            checked={lng}
            text={(l) => t(`languages.${l}`)}
            onChoose={chooseLanguage}
          />
          <MenuRadios
            label={t("menu.theme")}
            values={THEMES}
            checked={theme}
            text={(th) => t(`menu.themes.${th}`)}
            onChoose={chooseTheme}
          />
          <button type="button" role="menuitem" aria-haspopup="dialog" onClick={() => (setShortcuts(true), close())}>
            {t("shortcuts.title")} <kbd>?</kbd>
          </button>
          <button type="button" role="menuitem" onClick={() => void logout()}>
            {t("menu.logout")}
          </button>
          <button type="button" role="menuitem" onClick={() => void logout(true)}>
            {t("menu.logoutEverywhere")}
          </button>
        </>
      )}
      after={
        <>
          {profile && getBoot()?.user && (
            <ProfileModal userId={userId} name={name} email={email} onClose={() => setProfile(false)} />
          )}
          {shortcuts && <ShortcutsDialog onClose={() => setShortcuts(false)} />}
        </>
      }
    />
  );
}

/** A labelled group of menu items, one of them checked. */
function MenuRadios<V extends string>({
  label,
  values,
  checked,
  text,
  onChoose,
}: {
  label: string;
  values: readonly V[];
  checked: V;
  text: (value: V) => ReactNode;
  onChoose: (value: V) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of menu items, not form fields
    <div className="menu-group" role="group" aria-label={label}>
      <span className="menu-label">{label}</span>
      {values.map((value) => (
        <button
          key={value}
          type="button"
          role="menuitemradio"
          aria-checked={value === checked}
          onClick={() => onChoose(value)}
        >
          {text(value)}
        </button>
      ))}
    </div>
  );
}
