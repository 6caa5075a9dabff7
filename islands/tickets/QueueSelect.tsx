import type { QueueOption } from "../../src/shared/contracts";
import { useT } from "../lib/i18n-context";
import { SwatchCheck } from "../lib/form";
import { MenuButton } from "../lib/menu-button";

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
  const toggle = (id: number) => onChange(value.includes(id) ? value.filter((v) => v !== id) : [...value, id]);
  return (
    <MenuButton
      className="queue-select"
      buttonClassName="chip-button"
      button={label ?? t("tickets.queues", { n: value.length })}
      menuClassName="left"
      menu={() =>
        queues.map((q) => (
          <SwatchCheck
            key={q.id}
            name={q.name}
            color={q.color}
            checked={value.includes(q.id)}
            onChange={() => toggle(q.id)}
          />
        ))
      }
    />
  );
}
