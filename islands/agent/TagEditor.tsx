import { useEffect, useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { usePopover } from "../lib/popover";
import { toast } from "../lib/toast";
import type { Tag as SharedTag, Ticket } from "../../src/shared/contracts";

type Tag = Pick<SharedTag, "id" | "name" | "color">;

/** The chat header's tag editor: the ticket's tags as chips and a checklist of every tag (GET /tags/list → POST /tags/sync). */
export function TagEditor({ ticket, onChange }: { ticket: Ticket; onChange: (t: Ticket) => void }) {
  const t = useT();
  const { open, setOpen, root } = usePopover();
  const [all, setAll] = useState<Tag[] | null>(null);

  useEffect(() => {
    if (open && !all) api<Tag[]>("/tags/list").then(setAll, (error) => toast("error", errorText(t, error)));
  }, [open, all, t]);

  async function toggle(tag: Tag) {
    const has = ticket.tags.some((x) => x.id === tag.id);
    const next = has ? ticket.tags.filter((x) => x.id !== tag.id) : [...ticket.tags, tag];
    onChange({ ...ticket, tags: next });
    try {
      onChange(
        await api<Ticket>("/tags/sync", {
          method: "POST",
          body: { ticketId: ticket.id, tags: next.map((x) => ({ id: x.id })) },
        }),
      );
    } catch (error) {
      onChange(ticket);
      toast("error", errorText(t, error));
    }
  }

  return (
    <div className="tag-editor" ref={root}>
      {ticket.tags.map((tag) => (
        <span key={tag.id} className="chip" style={{ background: tag.color, color: "#fff" }}>
          {tag.name}
        </span>
      ))}
      <button
        type="button"
        className="chip-button"
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {t("agent.tags.edit")}
      </button>
      {open && (
        <div className="menu tag-menu">
          {all && all.length === 0 && <p className="menu-empty">{t("agent.tags.none")}</p>}
          {all?.map((tag) => (
            <label key={tag.id} className="menu-check">
              <input type="checkbox" checked={ticket.tags.some((x) => x.id === tag.id)} onChange={() => toggle(tag)} />
              <span className="swatch" style={{ background: tag.color }} />
              {tag.name}
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
