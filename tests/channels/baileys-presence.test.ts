// @engine once
import { afterEach, describe, expect, test } from "bun:test";
import type { BinaryNode } from "baileys";
import { driverOnFake, pair, TEST_CONNECTION as CONN } from "./fakewa/driver";

const CONTACT = "5511988887777";
const JID = `${CONTACT}@s.whatsapp.net`;
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

async function paired() {
  const ctx = driverOnFake({ onWhatsApp: [CONTACT] });
  cleanup.push(ctx.dispose);
  await pair(ctx);
  return ctx;
}

const chatstate = (state: string) => (n: BinaryNode) =>
  n.tag === "chatstate" && n.attrs.to === JID && Array.isArray(n.content) && n.content[0]?.tag === state;

describe("baileys driver: presence and reactions", () => {
  test("opening a chat subscribes to the contact's presence, and the agent typing is sent as composing then paused", async () => {
    const ctx = await paired();
    await ctx.driver.subscribePresence(CONN.id, CONTACT, false);
    await ctx.fake.waitFor((n) => n.tag === "presence" && n.attrs.type === "subscribe" && n.attrs.to === JID);
    await ctx.driver.sendPresence(CONN.id, CONTACT, false, "composing");
    await ctx.fake.waitFor(chatstate("composing"));
    await ctx.driver.sendPresence(CONN.id, CONTACT, false, "paused");
    await ctx.fake.waitFor(chatstate("paused"));
  });

  test("the contact typing, recording, stopping and leaving is reported as their presence in the chat", async () => {
    const ctx = await paired();
    ctx.fake.chatstate(CONTACT, "composing");
    ctx.fake.chatstate(CONTACT, "recording");
    ctx.fake.chatstate(CONTACT, "paused");
    ctx.fake.presence(CONTACT, "unavailable");
    await ctx.sink.until(() => ctx.sink.presences.length >= 4);
    // WhatsApp's `paused` means the contact is still in the chat: Baileys reports it as available.
    expect(ctx.sink.presences).toEqual([
      { chatId: CONTACT, state: "composing" },
      { chatId: CONTACT, state: "recording" },
      { chatId: CONTACT, state: "available" },
      { chatId: CONTACT, state: "unavailable" },
    ]);
  });

  test("a reaction is sent as a reaction message about the customer's message, and an empty one takes it back", async () => {
    const ctx = await paired();
    ctx.fake.deliver(CONTACT, "IN-1", { conversation: "Oi" });
    await ctx.sink.until(() => ctx.sink.messages.find((m) => m.id === "IN-1"));
    await ctx.driver.sendReaction(CONN.id, CONTACT, false, { id: "IN-1", fromMe: false }, "👍");
    const sent = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.type === "reaction");
    const reaction = (await ctx.fake.decryptFor(sent, CONTACT)).reactionMessage;
    expect({ text: reaction?.text, id: reaction?.key?.id, fromMe: reaction?.key?.fromMe }).toEqual({
      text: "👍",
      id: "IN-1",
      fromMe: false,
    });
    await ctx.driver.sendReaction(CONN.id, CONTACT, false, { id: "IN-1", fromMe: false }, "");
    const removed = await ctx.fake.waitForNth((n) => n.tag === "message" && n.attrs.type === "reaction", 2);
    expect((await ctx.fake.decryptFor(removed, CONTACT)).reactionMessage?.text).toBe("");
  });
});
