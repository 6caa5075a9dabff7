import { useEffect, useState } from "react";
import { useT } from "./lib/i18n-context";
import { Icon } from "./lib/icons";

/** The hamburger that opens the temporary drawer below 600 px (the drawer is server-rendered). */
export default function NavToggle() {
  const t = useT();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    document.body.classList.toggle("drawer-open", open);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    const onClick = (e: MouseEvent) => {
      if ((e.target as HTMLElement).classList.contains("drawer-backdrop")) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

  return (
    <button
      type="button"
      className="icon-button on-dark nav-toggle"
      aria-controls="drawer"
      aria-expanded={open}
      aria-label={t("menu.openDrawer")}
      onClick={() => setOpen(!open)}
    >
      <Icon name="menu" />
    </button>
  );
}
