import type { QueueOption } from "../../src/shared/contracts";
import { useT } from "../lib/i18n-context";
import { usePopover } from "../lib/popover";

/** A checklist popover of queues (or tags) for the ticket list's filters. */
export function QueueSelect({
  queues,
  value,
  onChange,
  label,
}: {
  queues: QueueOption[];
  value: number[];
  onChange: (ids: number[]) => void;
  label?: string;
}) {
  const t = useT();
  const { open, setOpen, root } = usePopover();
  const toggle = (id: number) => onChange(value.includes(id) ? value.filter((v) => v !== id) : [...value, id]);
  return (
    <div className="queue-select" ref={root}>
      <button
        type="button"
        className="chip-button"
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {label ?? t("tickets.queues", { n: value.length })}
      </button>
      {open && (
        <div className="menu left">
          {queues.map((q) => (
            <label key={q.id} className="menu-check">
              <input type="checkbox" checked={value.includes(q.id)} onChange={() => toggle(q.id)} />
              <span className="swatch" style={{ background: q.color }} />
              {q.name}
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
