import { describe, expect, test } from "bun:test";
import { ticketIdOfPath } from "../islands/lib/ticket-nav";
import { DEFAULT_VIEW, landingSub, listViewQuery, parseListView } from "../islands/tickets/list-view";

describe("the ticket list's view in the address", () => {
  test("tab, sub-tab and search are read from the query; unknown values fall back to the defaults", () => {
    expect(parseListView(new URLSearchParams(""))).toEqual(DEFAULT_VIEW);
    expect(parseListView(new URLSearchParams("tab=closed"))).toEqual({ tab: "closed", sub: "open", search: "" });
    expect(parseListView(new URLSearchParams("sub=pending"))).toEqual({ tab: "open", sub: "pending", search: "" });
    expect(parseListView(new URLSearchParams("sub=snoozed"))).toEqual({ tab: "open", sub: "snoozed", search: "" });
    expect(parseListView(new URLSearchParams("tab=search&q=Ana%20Lia"))).toEqual({
      tab: "search",
      sub: "open",
      search: "Ana Lia",
    });
    expect(parseListView(new URLSearchParams("tab=nope&sub=x"))).toEqual(DEFAULT_VIEW);
    expect(parseListView(new URLSearchParams(`q=${"a".repeat(500)}`)).search).toHaveLength(200);
  });

  test("the query names only what differs from the defaults and what the tab shows, keeping other parameters", () => {
    expect(listViewQuery(DEFAULT_VIEW)).toBe("");
    expect(listViewQuery({ tab: "closed", sub: "pending", search: "x" })).toBe("?tab=closed");
    expect(listViewQuery({ tab: "open", sub: "pending", search: "x" })).toBe("?sub=pending");
    expect(listViewQuery({ tab: "search", sub: "open", search: "Ana Lia" })).toBe("?tab=search&q=Ana+Lia");
    expect(listViewQuery(DEFAULT_VIEW, new URLSearchParams("tab=closed&lang=pt"))).toBe("?lang=pt");
    const view = { tab: "search" as const, sub: "open" as const, search: "pão & café" };
    expect(parseListView(new URLSearchParams(listViewQuery(view)))).toEqual(view);
  });

  test("without a sub-tab in the query the list lands on Waiting while nothing is in service and someone waits", () => {
    expect(landingSub({ open: 0, pending: 1 })).toBe("pending");
    expect(landingSub({ open: 1, pending: 3 })).toBe("open");
    expect(landingSub({ open: 0, pending: 0 })).toBe("open");
    expect(parseListView(new URLSearchParams(""), "pending").sub).toBe("pending");
    expect(parseListView(new URLSearchParams("sub=open"), "pending").sub).toBe("open");
    // The landing sub-tab leaves the query empty; In service chosen over it is named.
    expect(listViewQuery({ tab: "open", sub: "pending", search: "" }, undefined, "pending")).toBe("");
    expect(listViewQuery({ tab: "open", sub: "open", search: "" }, undefined, "pending")).toBe("?sub=open");
  });

  test("a ticket's path names it; the list's path and other paths name none", () => {
    expect(ticketIdOfPath("/tickets/42")).toBe(42);
    expect(ticketIdOfPath("/tickets")).toBeNull();
    expect(ticketIdOfPath("/tickets/abc")).toBeNull();
    expect(ticketIdOfPath("/contacts/42")).toBeNull();
  });
});
