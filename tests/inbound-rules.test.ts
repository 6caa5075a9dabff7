// @engine once
import { first } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { messages, tickets, connectionPhonebook } from "../src/db/tables";
import { missedCallText } from "../src/modules/inbound/calls";
import { isBackKey, optionNumber, renderMenu } from "../src/modules/inbound/menu";
import { isInsideWorkHours, localTime } from "../src/modules/inbound/work-hours";
import { createSandboxConnection, makeTestApp } from "./helpers";

const week = {
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: false,
  sunday: false,
};
const hours = {
  defineWorkHours: true,
  startWorkHour: "08:00",
  endWorkHour: "17:30",
  startWorkHourWeekend: "09:00",
  endWorkHourWeekend: "12:00",
  ...week,
};
// 2026-11-23 is a Monday.
const at = (iso: string) => Date.parse(iso);

describe("work hours", () => {
  test("are evaluated as minutes since midnight in the configured time zone", () => {
    expect(isInsideWorkHours(hours, at("2026-11-23T08:05:00Z"), "UTC")).toBe(true);
    expect(isInsideWorkHours(hours, at("2026-11-23T07:59:00Z"), "UTC")).toBe(false);
    expect(isInsideWorkHours(hours, at("2026-11-23T17:30:00Z"), "UTC")).toBe(true);
    expect(isInsideWorkHours(hours, at("2026-11-23T17:31:00Z"), "UTC")).toBe(false);
    // 11:05 UTC is 08:05 in São Paulo (UTC-3).
    expect(isInsideWorkHours(hours, at("2026-11-23T10:05:00Z"), "America/Sao_Paulo")).toBe(false);
    expect(isInsideWorkHours(hours, at("2026-11-23T11:05:00Z"), "America/Sao_Paulo")).toBe(true);
  });

  test("a disabled day is outside, weekends use their own hours, no definition means always inside", () => {
    expect(isInsideWorkHours(hours, at("2026-11-22T10:00:00Z"), "UTC")).toBe(false);
    expect(isInsideWorkHours({ ...hours, sunday: true }, at("2026-11-22T10:00:00Z"), "UTC")).toBe(true);
    expect(isInsideWorkHours({ ...hours, sunday: true }, at("2026-11-22T13:00:00Z"), "UTC")).toBe(false);
    expect(isInsideWorkHours({ ...hours, defineWorkHours: false }, at("2026-11-22T03:00:00Z"), "UTC")).toBe(true);
  });

  test("an end before the start crosses midnight", () => {
    const night = { ...hours, startWorkHour: "22:00", endWorkHour: "06:00" };
    expect(isInsideWorkHours(night, at("2026-11-23T23:00:00Z"), "UTC")).toBe(true);
    expect(isInsideWorkHours(night, at("2026-11-23T05:00:00Z"), "UTC")).toBe(true);
    expect(isInsideWorkHours(night, at("2026-11-23T12:00:00Z"), "UTC")).toBe(false);
  });

  test("localTime gives weekday and minutes", () => {
    expect(localTime(at("2026-11-23T09:05:00Z"), "UTC")).toEqual({ day: "monday", minutes: 545 });
  });
});

describe("menus", () => {
  test("text menus number the options and submenus carry the back line", () => {
    expect(renderMenu("Hi", [{ name: "A" }, { name: "B" }], false)).toBe("Hi\n\n*1* - A\n*2* - B");
    expect(renderMenu("", [{ name: "A" }], true)).toBe("*1* - A\n\n*#* Voltar para o menu principal");
  });

  test("replies are read as numbers; # and 0 go back", () => {
    expect(optionNumber(" 2 ")).toBe(2);
    expect(optionNumber("2a")).toBeNull();
    expect(isBackKey("#")).toBe(true);
    expect(isBackKey("0")).toBe(true);
    expect(isBackKey("1")).toBe(false);
  });

  test("the missed-call line is zero-padded HH:mm", () => {
    expect(missedCallText(at("2026-11-23T09:05:00Z"), "UTC")).toBe("Chamada de voz/vídeo perdida às 09:05");
  });
});

describe("driver reports", () => {
  test("contacts reported by a connection land in its phone book (upsert)", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    const sink = ctx.channels.driverSink;
    await sink.onContacts(conn.id, [{ phone: "5511988887777", name: "Ana" }, { phone: "bad" }]);
    await sink.onContacts(conn.id, [{ phone: "5511988887777", lid: "123456" }]);
    const rows = await ctx.db.select().from(connectionPhonebook).where(eq(connectionPhonebook.whatsappId, conn.id));
    expect(rows).toEqual([
      { whatsappId: conn.id, jid: "5511988887777@s.whatsapp.net", phone: "5511988887777", lid: "123456", name: "Ana" },
    ]);
  });

  test("acks never go backwards and revokes mark the message deleted", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi", id: "IN1" });
    const sink = ctx.channels.driverSink;
    await sink.onAck(conn.id, "IN1", 3);
    await sink.onAck(conn.id, "IN1", 2);
    await sink.onRevoked(conn.id, "IN1");
    const row = (await first(ctx.db.select().from(messages).where(eq(messages.wid, "IN1"))))!;
    expect(row.ack).toBe(3);
    expect(row.isDeleted).toBe(true);
  });

  test("own messages typed on the phone are stored without unread; LRM echoes are ignored", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    const sink = ctx.channels.driverSink;
    const base = { chatId: "5511988887777", isGroup: false, fromMe: true, at: ctx.clock.now(), kind: "chat" as const };
    await sink.onMessage(conn.id, { ...base, id: "OWN1", body: "typed on phone" });
    await sink.onMessage(conn.id, { ...base, id: "OWN2", body: "\u200eauto" });
    expect((await ctx.db.select().from(messages)).map((m) => m.wid)).toEqual(["OWN1"]);
    expect((await first(ctx.db.select().from(tickets)))!.unreadMessages).toBe(0);
  });

  test("the contact picture is asked at most every 6 hours and contact updates are emitted only on change", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    let asked = 0;
    let answered = Promise.withResolvers<void>();
    ctx.sandbox.profilePictureUrl = async () => {
      asked++;
      answered.resolve();
      return "https://pics.example/ana.jpg";
    };
    for (const id of ["P1", "P2"]) await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi", id });
    expect(asked).toBe(1);
    expect(ctx.hub.to("all", "contact").map((e) => e.payload.action)).toEqual(["create", "update"]);
    ctx.clock.advance(6 * 3600 * 1000);
    answered = Promise.withResolvers<void>();
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi", id: "P3" });
    // The picture is asked beside the message, not before it is stored.
    await answered.promise;
    expect(asked).toBe(2);
    expect(ctx.hub.to("all", "contact")).toHaveLength(2);
  });

  test("a picture query that never answers does not hold up the chat's next message", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    ctx.sandbox.profilePictureUrl = () => new Promise(() => {});
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi", id: "H1" });
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Tem alguém?", id: "H2" });
    expect((await ctx.db.select().from(messages)).map((m) => m.wid)).toEqual(["H1", "H2"]);
  });
});
