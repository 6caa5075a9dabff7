// @engine once
import { one } from "../src/db/client";
import { beforeEach, describe, expect, test } from "bun:test";
import { contacts, queues, tickets } from "../src/db/tables";
import { BASE, islandProps as props, loginAs, makeTestApp, type TestContext } from "./helpers";

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestApp();
});

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.handle(new Request(BASE + path, { headers }));
  return { status: res.status, html: await res.text() };
}

describe("dashboard page", () => {
  test("/ renders the three counters and twelve hourly bars from 08:00 to 19:00, with the caller's counts", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    const c = await one(ctx.db.insert(contacts).values({ name: "Bia", number: "5511900000001" }).returning());
    await ctx.db.insert(tickets).values([
      { contactId: c.id, status: "pending" },
      { contactId: c.id, status: "closed" },
    ]);
    const res = await page("/", { cookie, "accept-language": "en" });
    expect(res.status).toBe(200);
    expect(res.html).toContain('data-island="AgentDashboard"');
    expect(res.html.match(/<main.*<\/main>/s)![0]).not.toContain("not available in the browser yet");
    expect(props(res.html, "AgentDashboard").initial).toMatchObject({ open: 0, pending: 1, closed: 1 });
    for (const label of ["In service", "Waiting", "Closed"]) expect(res.html).toContain(label);
    const hours = [...res.html.matchAll(/class="bar-hour">(\d\d:00)</g)].map((m) => m[1]);
    expect(hours).toEqual([
      "08:00",
      "09:00",
      "10:00",
      "11:00",
      "12:00",
      "13:00",
      "14:00",
      "15:00",
      "16:00",
      "17:00",
      "18:00",
      "19:00",
    ]);
  });

  test("an agent's counters leave out tickets of queues the agent is not in", async () => {
    const [mine, other] = await ctx.db
      .insert(queues)
      .values([
        { name: "Sales", color: "#111111" },
        { name: "Support", color: "#222222" },
      ])
      .returning();
    const { cookie } = await loginAs(ctx, { queueIds: [mine!.id] });
    const c = await one(ctx.db.insert(contacts).values({ name: "Bia", number: "5511900000001" }).returning());
    await ctx.db.insert(tickets).values([
      { contactId: c.id, status: "pending", queueId: mine!.id },
      { contactId: c.id, status: "pending", queueId: other!.id },
    ]);
    const res = await page("/", { cookie });
    expect(props(res.html, "AgentDashboard").initial.pending).toBe(1);
  });

  test("the dashboard is translated (pt)", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page("/", { cookie, "accept-language": "pt-BR" });
    expect(res.html).toContain("Em atendimento");
    expect(res.html).toContain("Aguardando");
  });
});

describe("contacts page", () => {
  test("/contacts renders the table island with import and add buttons; delete is offered to admins only", async () => {
    const agent = await loginAs(ctx);
    const a = await page("/contacts", { cookie: agent.cookie, "accept-language": "en" });
    expect(a.status).toBe(200);
    expect(a.html).toContain('data-island="AgentContacts"');
    expect(a.html).toContain("Import contacts");
    expect(a.html).toContain("Add contact");
    expect(a.html).toContain('href="/contacts" aria-current="page"');
    expect(props(a.html, "AgentContacts")).toMatchObject({ userId: agent.user.id, canDelete: false });
    const admin = await loginAs(ctx, { profile: "admin" });
    const b = await page("/contacts", { cookie: admin.cookie });
    expect(props(b.html, "AgentContacts").canDelete).toBe(true);
  });

  test("/contacts is translated (es)", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page("/contacts", { cookie, "accept-language": "es" });
    expect(res.html).toContain("Importar contactos");
    expect(res.html).toContain("Número de WhatsApp");
  });
});

describe("ticketfind page", () => {
  test("/ticketfind/:phone shows the redirect text with the phone", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page("/ticketfind/5511988887777", { cookie, "accept-language": "pt-BR" });
    expect(res.status).toBe(200);
    expect(res.html).toContain('data-island="AgentTicketFind"');
    expect(res.html).toContain("Redirecionando para o ticket de 5511988887777...");
  });

  test("an odd phone is rendered as text, never as markup", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page(`/ticketfind/${encodeURIComponent("<b>x</b>")}`, { cookie, "accept-language": "en" });
    expect(res.status).toBe(200);
    expect(res.html).not.toContain("<b>x</b>");
  });
});

describe("quick answers page", () => {
  test("/quickAnswers renders the searchable table island with the add button", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page("/quickAnswers", { cookie, "accept-language": "en" });
    expect(res.status).toBe(200);
    expect(res.html).toContain('data-island="AgentQuickAnswers"');
    expect(res.html).toContain("Add quick answer");
    expect(res.html).toContain("Shortcut");
    expect(res.html).toContain('href="/quickAnswers" aria-current="page"');
  });
});

describe("schedules page", () => {
  test("/schedules renders the schedules table island, translated", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page("/schedules", { cookie, "accept-language": "pt-BR" });
    expect(res.status).toBe(200);
    expect(res.html).toContain('data-island="AgentSchedules"');
    expect(res.html).toContain("Novo agendamento");
    expect(res.html).toContain("Data de envio");
  });

  test("bodies are cut at 25 characters with an ellipsis; ERRO reads 'Erro de Envio' in Portuguese", async () => {
    const { truncateBody } = await import("../islands/agent/Schedules");
    expect(truncateBody("1234567890123456789012345")).toBe("1234567890123456789012345");
    expect(truncateBody("12345678901234567890123456")).toBe("1234567890123456789012345...");
    const { LOCALES } = await import("../src/i18n/server");
    expect(LOCALES.pt.agent.schedules.statuses.ERRO).toBe("Erro de Envio");
  });
});
