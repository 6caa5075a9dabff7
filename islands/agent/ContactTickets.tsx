import { useCallback, useEffect, useId, useState } from "react";
import type { ContactTicketDto, Wire } from "../../src/shared/contracts";
import { callApi } from "../lib/api";
import { textColorOn } from "../lib/color-presets";
import { errorText } from "../lib/errors";
import { listTime } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

type ContactTicket = Wire<ContactTicketDto>;

/** The contact's tickets the user may see (GET /contacts/:id/tickets), a page at a time; null until the first arrives. */
function useContactTickets(contactId: number) {
  const t = useT();
  const [tickets, setTickets] = useState<ContactTicket[] | null>(null);
  const [page, setPage] = useState({ number: 0, hasMore: true });
  const more = useCallback(
    async (number: number) => {
      try {
        const got = await callApi("GET /contacts/:id/tickets", {
          params: { id: contactId },
          query: { pageNumber: number },
        });
        setTickets((shown) => [...(number === 1 ? [] : (shown ?? [])), ...got.tickets]);
        setPage({ number, hasMore: got.hasMore });
      } catch (error) {
        toast("error", errorText(t, error));
      }
    },
    [contactId, t],
  );
  useEffect(() => void more(1), [more]);
  return { tickets, hasMore: page.hasMore, more: () => more(page.number + 1) };
}

/**
 * In the contact drawer: the tags and private notes over the contact's tickets, then the tickets themselves (status,
 * queue, agent, last activity, rating, notes), each a link that the tickets page opens in place.
 */
export function ContactTickets({ contactId, current }: { contactId: number; current: number }) {
  const t = useT();
  const titleId = useId();
  const list = useContactTickets(contactId);
  const { tickets } = list;
  if (!tickets) return null;
  const tags = [...new Map(tickets.flatMap((x) => x.tags).map((tag) => [tag.id, tag])).values()];
  const notes = tickets.reduce((sum, x) => sum + x.notes, 0);
  return (
    <>
      <dl className="extra-list contact-summary">
        <div>
          <dt>{t("agent.contactDrawer.tags")}</dt>
          <dd className="row-tags">
            {tags.length
              ? tags.map((tag) => (
                  <span key={tag.id} className="chip" style={{ background: tag.color, color: textColorOn(tag.color) }}>
                    {tag.name}
                  </span>
                ))
              : t("agent.contactDrawer.noTags")}
          </dd>
        </div>
        <div>
          <dt>{t("agent.contactDrawer.notesTitle")}</dt>
          <dd>{t("agent.contactDrawer.notes", { count: notes })}</dd>
        </div>
      </dl>
      <section className="contact-tickets" aria-labelledby={titleId}>
        <h3 id={titleId}>{t("agent.contactDrawer.tickets")}</h3>
        {tickets.length === 0 && <p className="menu-empty">{t("agent.contactDrawer.none")}</p>}
        <ul>
          {tickets.map((x) => (
            <li key={x.id}>
              <a href={`/tickets/${x.id}`} aria-current={x.id === current ? "page" : undefined}>
                <span className="contact-ticket-top">
                  <strong>#{x.id}</strong>
                  <span className={`status-chip status-${x.status}`}>{t(`tickets.status.${x.status}`)}</span>
                  <time dateTime={x.updatedAt}>{listTime(x.updatedAt)}</time>
                </span>
                <span className="contact-ticket-sub">
                  {x.queue && <span className="swatch" style={{ background: x.queue.color }} aria-hidden="true" />}
                  {x.queue?.name ?? t("agent.contactDrawer.noQueue")} ·{" "}
                  {x.user?.name ?? t("agent.contactDrawer.noAgent")}
                </span>
                {(x.csat || x.notes > 0) && (
                  <span className="contact-ticket-sub">
                    {x.csat && `⭐ ${t("chat.csat.rating", { rating: x.csat.rating })}`}
                    {x.csat && x.notes > 0 && " · "}
                    {x.notes > 0 && t("agent.contactDrawer.notes", { count: x.notes })}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
        {list.hasMore && (
          <button type="button" className="button small" onClick={() => void list.more()}>
            {t("agent.contactDrawer.more")}
          </button>
        )}
      </section>
    </>
  );
}
