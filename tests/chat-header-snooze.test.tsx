import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { ChatHeader } from "../islands/chat/ChatHeader";
import { snoozeChoices } from "../islands/chat/snooze-times";
import { I18nProvider } from "../islands/lib/i18n-context";
import { i18nFor } from "../src/i18n/server";
import type { Ticket } from "../src/shared/contracts";

const ticket: Ticket = {
  id: 7,
  status: "open",
  contactId: 1,
  userId: 2,
  queueId: null,
  whatsappId: 3,
  isGroup: false,
  isBot: false,
  unreadMessages: 0,
  lastMessage: "",
  preview: null,
  channel: "whatsapp",
  fromHistory: false,
  snoozedUntil: null,
  csat: null,
  waitingSince: null,
  sla: { firstResponseDueAt: null, resolutionDueAt: null, breached: false, breachedTargets: [] },
  createdAt: "2026-03-10T14:00:00.000Z",
  updatedAt: "2026-03-10T14:00:00.000Z",
  contact: { id: 1, name: "Carla", number: "5511988887777", profilePicUrl: "", isGroup: false },
  user: { id: 2, name: "Ana" },
  queue: null,
  whatsapp: { id: 3, name: "Shop", hasCall: false },
  tags: [],
};

const header = (t: Ticket, canSnooze: boolean, loading = false) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18nFor("en")}>
      <ChatHeader
        ticketId={t.id}
        ticket={loading ? null : t}
        name={loading ? "" : "Carla"}
        canDelete={false}
        canSnooze={canSnooze}
        onStatus={() => {}}
        onSnooze={() => {}}
        onUnsnooze={() => {}}
        onCall={() => {}}
        onDialog={() => {}}
        onSearch={() => {}}
      />
    </I18nProvider>,
  );

describe("the chat header's title, snooze and rating", () => {
  test("the Snooze menu shows for who may snooze only, and the customer's rating shows under the name", () => {
    expect(header(ticket, true)).toContain(">Snooze</button>");
    expect(header(ticket, false)).not.toContain(">Snooze</button>");
    const rated = { ...ticket, status: "closed" as const, csat: { rating: 4, comment: "Great", answeredAt: "" } };
    expect(header(rated, false)).toContain("⭐ Rating 4/5");
  });

  test("while the ticket just opened has not arrived, the title is a placeholder, not a bare '#id'", () => {
    const loading = header(ticket, false, true);
    expect(loading).toContain('class="chat-title-placeholder"');
    expect(loading).not.toContain("#7");
    expect(header(ticket, false)).toContain('<span class="ticket-id">#7</span>');
  });

  test("later today is three hours on; tomorrow and next week start at 9:00, next week on the coming Monday", () => {
    const friday = new Date(2026, 2, 13, 16, 30);
    const { laterToday, tomorrow, nextWeek } = snoozeChoices(friday);
    expect(laterToday.getTime() - friday.getTime()).toBe(3 * 3600_000);
    expect([tomorrow.getDate(), tomorrow.getHours()]).toEqual([14, 9]);
    expect([nextWeek.getDay(), nextWeek.getDate(), nextWeek.getHours()]).toEqual([1, 16, 9]);
    const monday = snoozeChoices(new Date(2026, 2, 16, 10)).nextWeek;
    expect(monday.getDate()).toBe(23);
  });
});
