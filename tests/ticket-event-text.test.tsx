import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { MessageList } from "../islands/chat/MessageList";
import { ticketEventText } from "../islands/chat/ticket-event-text";
import { I18nProvider } from "../islands/lib/i18n-context";
import { i18nFor } from "../src/i18n/server";
import type { Message, NamedRef, TicketEvent, TicketEventSide } from "../src/shared/contracts";

const ana: NamedRef = { id: 1, name: "Ana" };
const bia: NamedRef = { id: 2, name: "Bia" };
const sales: NamedRef = { id: 10, name: "Sales" };
const support: NamedRef = { id: 11, name: "Support" };
const phone: NamedRef = { id: 20, name: "Shop phone" };
const side = (fields: Partial<TicketEventSide>): TicketEventSide => ({
  status: "open",
  user: null,
  queue: sales,
  connection: phone,
  ...fields,
});
const event = (fields: Partial<TicketEvent>): TicketEvent => ({
  id: 1,
  ticketId: 7,
  kind: "transferred",
  cause: "agent",
  at: "2025-03-10T14:02:00.000Z",
  actor: ana,
  from: side({}),
  to: side({}),
  value: null,
  ...fields,
});

describe("what a change of the ticket reads as in the chat", () => {
  const en = i18nFor("en").t;
  test("the chatbot giving up says after how many invalid answers, so the agent knows why the customer waits", () => {
    const stopped = event({ kind: "bot_stopped", cause: "chatbot", actor: null, value: 3 });
    expect(ticketEventText(en, stopped)).toBe(
      "The chatbot stopped after 3 invalid answers: the customer waits for a person",
    );
    expect(ticketEventText(i18nFor("pt").t, stopped)).toBe(
      "O chatbot parou após 3 respostas inválidas: o cliente aguarda um atendente",
    );
  });
  test("transfers name where the ticket went and who sent it there", () => {
    const text = (fields: Partial<TicketEvent>) => ticketEventText(en, event(fields));
    expect(text({ from: side({ user: ana }), to: side({ status: "pending", queue: support }) })).toBe(
      "Transferred to Support by Ana",
    );
    expect(text({ from: side({ user: ana }), to: side({ user: bia }) })).toBe("Transferred to Bia by Ana");
    expect(text({ from: side({ user: ana }), to: side({ user: bia, queue: support }) })).toBe(
      "Transferred to Bia (Support) by Ana",
    );
    expect(text({ from: side({ user: ana }), to: side({ status: "pending" }) })).toBe("Returned to Waiting by Ana");
    expect(text({ to: side({ connection: { id: 21, name: "Second" } }) })).toBe("Moved to connection Second by Ana");
    expect(
      text({
        actor: null,
        cause: "chatbot",
        from: side({ queue: null }),
        to: side({ status: "pending", queue: support }),
      }),
    ).toBe("Routed to Support");
    expect(text({ actor: null, cause: "queue_deleted", to: side({ queue: support }) })).toBe("Transferred to Support");
  });

  test("accepts, resolves and reopens say who did it, or that it happened by itself or by the customer", () => {
    const text = (fields: Partial<TicketEvent>) => ticketEventText(en, event(fields));
    expect(text({ kind: "accepted" })).toBe("Accepted by Ana");
    expect(text({ kind: "resolved" })).toBe("Resolved by Ana");
    expect(text({ kind: "resolved", actor: null, cause: "auto_close" })).toBe("Resolved automatically");
    expect(text({ kind: "reopened", actor: null, cause: "customer" })).toBe("Reopened by the customer");
    expect(text({ kind: "reopened" })).toBe("Reopened by Ana");
    expect(text({ kind: "assigned", actor: null, cause: "chatbot", to: side({ user: bia }) })).toBe(
      "Assigned automatically to Bia",
    );
    expect(text({ kind: "accepted", actor: { id: 3, name: null } })).toBe("Accepted by (removed)");
  });

  test("the creation is not shown (the ticket separator stands there), nor kinds the chat does not know yet", () => {
    expect(ticketEventText(en, event({ kind: "created" }))).toBeNull();
    expect(ticketEventText(en, event({ kind: "first_response", value: 60_000 }))).toBeNull();
  });

  test("snoozes, wake-ups and ratings say who or what brought them", () => {
    const text = (fields: Partial<TicketEvent>) => ticketEventText(en, event(fields));
    expect(text({ kind: "snoozed" })).toBe("Snoozed by Ana");
    expect(text({ kind: "woken", actor: null, cause: "system" })).toBe("Back from snooze");
    expect(text({ kind: "woken", actor: null, cause: "customer" })).toBe("Back from snooze: the customer wrote");
    expect(text({ kind: "woken" })).toBe("Unsnoozed by Ana");
    expect(text({ kind: "rated", actor: null, cause: "customer", value: 4 })).toBe("Rated 4/5 by the customer");
    expect(ticketEventText(i18nFor("pt").t, event({ kind: "rated", actor: null, value: 5 }))).toBe(
      "Avaliado com 5/5 pelo cliente",
    );
  });

  test("in Portuguese and Spanish", () => {
    const transfer = event({ from: side({ user: ana }), to: side({ status: "pending", queue: support }) });
    expect(ticketEventText(i18nFor("pt").t, transfer)).toBe("Transferido para Support por Ana");
    expect(ticketEventText(i18nFor("es").t, transfer)).toBe("Transferido a Support por Ana");
    const reopen = event({ kind: "reopened", actor: null, cause: "customer" });
    expect(ticketEventText(i18nFor("pt").t, reopen)).toBe("Reaberto pelo cliente");
    expect(ticketEventText(i18nFor("es").t, reopen)).toBe("Reabierto por el cliente");
  });
});

describe("the history's separators among the bubbles", () => {
  const message = (id: number, createdAt: string, ticketId = 7): Message =>
    ({ id, ticketId, body: `message ${id}`, fromMe: false, createdAt, reactions: [] }) as unknown as Message;
  const render = (messages: Message[], events: TicketEvent[]) =>
    renderToStaticMarkup(
      <I18nProvider i18n={i18nFor("en")}>
        <MessageList
          list={{ current: null }}
          messages={messages}
          events={events}
          ticketId={7}
          loading={false}
          failed={false}
          onScroll={() => {}}
          onReply={() => {}}
        />
      </I18nProvider>,
    );

  test("each shown change sits between the messages before and after it; an event of a message's instant comes first", () => {
    const html = render(
      [
        message(1, "2025-03-10T09:00:00.000Z"),
        message(2, "2025-03-10T14:02:00.000Z"),
        message(3, "2025-03-10T15:00:00.000Z"),
      ],
      [
        event({ id: 1, kind: "accepted", at: "2025-03-10T09:10:00.000Z" }),
        event({ id: 2, kind: "created", at: "2025-03-10T08:59:00.000Z" }),
        event({ id: 3, kind: "resolved", at: "2025-03-10T14:02:00.000Z" }),
        event({ id: 4, kind: "reopened", actor: null, cause: "customer", at: "2025-03-10T16:00:00.000Z" }),
      ],
    );
    const order = [...html.matchAll(/message \d|Accepted by Ana|Resolved by Ana|Reopened by the customer/g)].map(
      (m) => m[0],
    );
    expect(order).toEqual([
      "message 1",
      "Accepted by Ana",
      "Resolved by Ana",
      "message 2",
      "message 3",
      "Reopened by the customer",
    ]);
    expect(html.match(/class="event-separator"/g)).toHaveLength(3);
  });
});
