import { useLayoutEffect, useRef, useState } from "react";
import { api, callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { SwatchCheck } from "../lib/form";
import { MenuButton } from "../lib/menu-button";
import { textColorOn } from "../lib/color-presets";
import { toast } from "../lib/toast";
import type { Tag as SharedTag, Ticket } from "../../src/shared/contracts";

type Tag = Pick<SharedTag, "id" | "name" | "color">;

/**
 * The chat header's tag editor: the ticket's tags as chips and a checklist of every tag (GET /tags/list → POST
 * /tags/sync), filtered as one types; Enter toggles the first tag shown.
 */
export function TagEditor({ ticket, onChange }: { ticket: Ticket; onChange: (t: Ticket) => void }) {
  const t = useT();
  const [all, setAll] = useState<Tag[] | null>(null);

  // Every tag is loaded when the menu first opens (again after a failed load).
  function loadTags(open: boolean) {
    if (open && !all) api<Tag[]>("/tags/list").then(setAll, (error) => toast("error", errorText(t, error)));
  }

  async function toggle(tag: Tag) {
    const has = ticket.tags.some((x) => x.id === tag.id);
    const next = has ? ticket.tags.filter((x) => x.id !== tag.id) : [...ticket.tags, tag];
    onChange({ ...ticket, tags: next });
    try {
      onChange(
        await callApi("POST /tags/sync", { body: { ticketId: ticket.id, tags: next.map((x) => ({ id: x.id })) } }),
      );
    } catch (error) {
      onChange(ticket);
      toast("error", errorText(t, error));
    }
  }

  return (
    <MenuButton
      className="tag-editor"
      before={ticket.tags.map((tag) => (
        <span key={tag.id} className="chip" style={{ background: tag.color, color: textColorOn(tag.color) }}>
          {tag.name}
        </span>
      ))}
      buttonClassName="chip-button"
      button={t("agent.tags.edit")}
      onToggle={loadTags}
      menuClassName="tag-menu"
      menu={() => <TagChecklist all={all} chosen={ticket.tags} onToggle={toggle} />}
    />
  );
}

/** Every tag as a checkbox under a field that narrows the list to the names holding what is typed. */
function TagChecklist({ all, chosen, onToggle }: { all: Tag[] | null; chosen: Tag[]; onToggle: (tag: Tag) => void }) {
  const t = useT();
  const [filter, setFilter] = useState("");
  const field = useRef<HTMLInputElement>(null);
  const loaded = all !== null;
  // Before the list paints, so that what is typed at once goes to the field.
  useLayoutEffect(() => {
    if (loaded) field.current?.focus();
  }, [loaded]);
  const wanted = filter.trim().toLocaleLowerCase();
  const shown = all?.filter((tag) => tag.name.toLocaleLowerCase().includes(wanted)) ?? [];
  return (
    <>
      {all && all.length > 0 && (
        <input
          ref={field}
          type="search"
          className="menu-filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter" || !shown[0]) return;
            e.preventDefault();
            onToggle(shown[0]);
          }}
          placeholder={t("agent.tags.find")}
          aria-label={t("agent.tags.find")}
        />
      )}
      {all && all.length === 0 && <p className="menu-empty">{t("agent.tags.none")}</p>}
      {all && all.length > 0 && shown.length === 0 && <p className="menu-empty">{t("agent.tags.noMatch")}</p>}
      {shown.map((tag) => (
        <SwatchCheck
          key={tag.id}
          name={tag.name}
          color={tag.color}
          checked={chosen.some((x) => x.id === tag.id)}
          onChange={() => onToggle(tag)}
        />
      ))}
    </>
  );
}
