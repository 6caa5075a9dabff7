import { describe, expect, test } from "bun:test";
import { type ListedTicket, type TicketListViewer, ticketInList } from "../src/shared/ticket-filter";

const agent: TicketListViewer = { id: 7, profile: "user", queueIds: [1] };
const admin: TicketListViewer = { id: 1, profile: "admin", queueIds: [] };
const ticket = (t: Partial<ListedTicket> = {}): ListedTicket => ({
  status: "pending",
  userId: null,
  queueId: null,
  tags: [],
  ...t,
});

describe("ticketInList", () => {
  test("a ticket must carry every selected tag, not just one of them", () => {
    const filter = { showAll: true, tags: [10, 11] };
    expect(ticketInList(ticket({ tags: [{ id: 10 }] }), filter, admin)).toBe(false);
    expect(ticketInList(ticket({ tags: [{ id: 11 }, { id: 10 }, { id: 12 }] }), filter, admin)).toBe(true);
    expect(ticketInList(ticket(), { showAll: true, tags: [] }, admin)).toBe(true);
  });

  test("snoozed tickets are only in the Snoozed list, and that list holds nothing else", () => {
    const snoozed = ticket({ status: "open", userId: 7, snoozedUntil: "2030-01-01T09:00:00.000Z" });
    const awake = ticket({ status: "open", userId: 7, snoozedUntil: null });
    expect(ticketInList(snoozed, { status: "open" }, agent)).toBe(false);
    expect(ticketInList(snoozed, { snoozed: true }, agent)).toBe(true);
    expect(ticketInList(awake, { snoozed: true }, agent)).toBe(false);
    expect(ticketInList(awake, { status: "open" }, agent)).toBe(true);
  });

  test("the status tab keeps only tickets in that status", () => {
    expect(ticketInList(ticket({ status: "open", userId: 7 }), { status: "open" }, agent)).toBe(true);
    expect(ticketInList(ticket({ status: "pending" }), { status: "open" }, agent)).toBe(false);
  });

  test("without show all, a list holds one's own tickets and the pending ones, in every status", () => {
    expect(ticketInList(ticket({ status: "open", userId: 1 }), { showAll: false }, admin)).toBe(true);
    expect(ticketInList(ticket({ status: "open", userId: 2 }), { showAll: false }, admin)).toBe(false);
    expect(ticketInList(ticket({ status: "closed", userId: 2 }), { status: "closed" }, admin)).toBe(false);
    expect(ticketInList(ticket({ status: "pending", userId: 2 }), { showAll: false }, admin)).toBe(true);
  });

  test("show all is honoured only for users allowed to see every ticket", () => {
    const others = ticket({ status: "open", userId: 99, queueId: 1 });
    expect(ticketInList(others, { showAll: true }, admin)).toBe(true);
    expect(ticketInList(others, { showAll: true }, agent)).toBe(false);
  });

  test("picked queues filter tickets, and queue-less tickets always pass", () => {
    expect(ticketInList(ticket({ queueId: 2 }), { showAll: true, queueIds: [1] }, admin)).toBe(false);
    expect(ticketInList(ticket({ queueId: 1 }), { showAll: true, queueIds: [1] }, admin)).toBe(true);
    expect(ticketInList(ticket(), { showAll: true, queueIds: [1] }, admin)).toBe(true);
    expect(ticketInList(ticket({ queueId: 2 }), { showAll: true }, admin)).toBe(true);
  });

  test("an agent sees their own queues and tickets assigned to them, never another queue's", () => {
    expect(ticketInList(ticket({ queueId: 1 }), {}, agent)).toBe(true);
    expect(ticketInList(ticket({ queueId: 2 }), { queueIds: [1, 2] }, agent)).toBe(false);
    expect(ticketInList(ticket({ queueId: 2, userId: 7, status: "open" }), {}, agent)).toBe(true);
    expect(ticketInList(ticket({ queueId: 1 }), { queueIds: [2] }, agent)).toBe(false);
  });
});
