import type { ReactNode } from "react";
import { usePopover } from "./popover";

/**
 * A button that opens a menu (`.menu`) under it; a press outside the box or Escape closes it. `before` and
 * `after` sit in the same box, outside the menu; `menu` is given a function that closes it.
 */
export function MenuButton({
  className,
  buttonClassName,
  button,
  label,
  haspopup = "true",
  onToggle,
  menuClassName,
  menuRole,
  menu,
  before,
  after,
}: {
  className: string;
  buttonClassName: string;
  button: ReactNode;
  /** The button's accessible name, when its content is an icon. */
  label?: string;
  haspopup?: "true" | "menu";
  /** Called on each click of the button with the state it switches to. */
  onToggle?: (open: boolean) => void;
  menuClassName?: string;
  menuRole?: "menu";
  menu: (close: () => void) => ReactNode;
  before?: ReactNode;
  after?: ReactNode;
}) {
  const { open, setOpen, root } = usePopover();
  function toggle() {
    onToggle?.(!open);
    setOpen(!open);
  }
  return (
    <div className={className} ref={root}>
      {before}
      <button
        type="button"
        className={buttonClassName}
        aria-haspopup={haspopup}
        aria-expanded={open}
        aria-label={label}
        onClick={toggle}
      >
        {button}
      </button>
      {open && (
        <div className={menuClassName ? `menu ${menuClassName}` : "menu"} role={menuRole}>
          {menu(() => setOpen(false))}
        </div>
      )}
      {after}
    </div>
  );
}
