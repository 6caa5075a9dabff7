import { describe, expect, test } from "bun:test";
import { proto, type WAMessage } from "baileys";
import { ackOfReceipt, nextAck } from "../../src/channels/baileys/acks";
import { mapCall, missedCallOf } from "../../src/channels/baileys/calls";
import { mapContacts } from "../../src/channels/baileys/contacts";
import { editedBody, quotedFromRaw } from "../../src/channels/baileys/content";
import { mapMessage, readUpsert, revokedIdOf, VIEW_ONCE_BODY, WAITING_BODY } from "../../src/channels/baileys/upsert";

const PN = "5511999990001@s.whatsapp.net";
const LID = "123456789012345@lid";

function wa(obj: Record<string, unknown>, extraKey: Record<string, string> = {}): WAMessage {
  const m = proto.WebMessageInfo.fromObject({ messageTimestamp: 1_700_000_000, ...obj }) as WAMessage;
  Object.assign(m.key, extraKey);
  return m;
}

describe("baileys message mapping", () => {
  test("plain text becomes a chat message with the phone digits and push name", () => {
    const m = mapMessage(
      wa({ key: { remoteJid: PN, id: "A1", fromMe: false }, pushName: "Ana", message: { conversation: "olá" } }),
    );
    expect(m).toMatchObject({
      id: "A1",
      chatId: "5511999990001",
      isGroup: false,
      fromMe: false,
      kind: "chat",
      body: "olá",
      pushName: "Ana",
      at: 1_700_000_000_000,
    });
    expect(m?.raw).toBeString();
  });

  test("extended text keeps the quoted stanza id", () => {
    const m = mapMessage(
      wa({
        key: { remoteJid: PN, id: "A2" },
        message: {
          extendedTextMessage: {
            text: "resposta",
            contextInfo: { stanzaId: "Q1", quotedMessage: { conversation: "pergunta" } },
          },
        },
      }),
    );
    expect(m).toMatchObject({ kind: "chat", body: "resposta", quotedId: "Q1" });
  });

  test("image uses its caption, audio and document their literal and title", () => {
    expect(
      mapMessage(
        wa({ key: { remoteJid: PN, id: "I" }, message: { imageMessage: { caption: "foto", mimetype: "image/jpeg" } } }),
      ),
    ).toMatchObject({ kind: "image", body: "foto" });
    expect(
      mapMessage(
        wa({ key: { remoteJid: PN, id: "Au" }, message: { audioMessage: { ptt: true, mimetype: "audio/ogg" } } }),
      ),
    ).toMatchObject({ kind: "audio", body: "Áudio" });
    expect(
      mapMessage(
        wa({
          key: { remoteJid: PN, id: "D" },
          message: { documentMessage: { fileName: "nota.pdf", title: "Nota", mimetype: "application/pdf" } },
        }),
      ),
    ).toMatchObject({ kind: "document", body: "Nota" });
    expect(
      mapMessage(wa({ key: { remoteJid: PN, id: "S" }, message: { stickerMessage: { mimetype: "image/webp" } } })),
    ).toMatchObject({ kind: "sticker", body: "sticker" });
  });

  test("document with caption is unwrapped", () => {
    const m = mapMessage(
      wa({
        key: { remoteJid: PN, id: "DC" },
        message: {
          documentWithCaptionMessage: { message: { documentMessage: { fileName: "a.pdf", caption: "veja" } } },
        },
      }),
    );
    expect(m).toMatchObject({ kind: "document", body: "veja" });
  });

  test("vcard body is the raw vCard", () => {
    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Bia\nTEL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD";
    expect(
      mapMessage(wa({ key: { remoteJid: PN, id: "V" }, message: { contactMessage: { displayName: "Bia", vcard } } })),
    ).toMatchObject({ kind: "vcard", body: vcard });
  });

  test("location body is thumbnail|maps link|coordinates", () => {
    const m = mapMessage(
      wa({
        key: { remoteJid: PN, id: "L" },
        message: { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6 } },
      }),
    );
    expect(m).toMatchObject({
      kind: "location",
      body: "|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|-23.5, -46.6",
    });
  });

  test("a reaction is read as a reaction to its target, never as a chat message", () => {
    const m = wa({
      key: { remoteJid: PN, id: "R" },
      message: { reactionMessage: { text: "👍", key: { remoteJid: PN, id: "T1", fromMe: true } } },
    });
    expect(mapMessage(m)).toBeNull();
    expect(readUpsert(m)).toEqual({
      type: "reaction",
      reaction: { targetId: "T1", emoji: "👍", reactor: "5511999990001", at: 1_700_000_000_000 },
    });
    const removal = wa({
      key: { remoteJid: PN, id: "R2", fromMe: true },
      message: { reactionMessage: { text: "", key: { remoteJid: PN, id: "T2" } } },
    });
    expect(readUpsert(removal)).toMatchObject({
      type: "reaction",
      reaction: { targetId: "T2", emoji: "", reactor: "me" },
    });
  });

  test("an edit protocol message is read as an edit of the target's text", () => {
    const m = wa({
      key: { remoteJid: PN, id: "E1" },
      message: {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
          key: { remoteJid: PN, id: "T9" },
          editedMessage: { conversation: "novo texto" },
          timestampMs: 1_700_000_050_000,
        },
      },
    });
    expect(readUpsert(m)).toEqual({ type: "edit", edit: { id: "T9", body: "novo texto", at: 1_700_000_050_000 } });
    expect(editedBody({ imageMessage: { caption: "nova legenda" } })).toBe("nova legenda");
  });

  test("polls, orders, products, group invites, events and interactive replies become readable text", () => {
    const body = (message: Record<string, unknown>) =>
      mapMessage(wa({ key: { remoteJid: PN, id: "K" }, message }))?.body;
    expect(
      body({
        pollCreationMessageV3: {
          name: "Melhor dia?",
          options: [{ optionName: "Seg" }, { optionName: "Ter" }, { optionName: "Qua" }],
        },
      }),
    ).toBe("📊 Poll: Melhor dia? — Seg / Ter / Qua");
    expect(
      body({ orderMessage: { itemCount: 2, orderTitle: "Pedido", totalAmount1000: 15990, totalCurrencyCode: "BRL" } }),
    ).toBe("🛒 Order: 2 item(s) — Pedido — 15.99 BRL");
    expect(
      body({ productMessage: { product: { title: "Camiseta", priceAmount1000: 49900, currencyCode: "BRL" } } }),
    ).toBe("🛍️ Product: Camiseta — 49.90 BRL");
    expect(body({ groupInviteMessage: { groupName: "Clientes VIP", inviteCode: "x" } })).toBe(
      "👥 Group invite: Clientes VIP",
    );
    expect(body({ eventMessage: { name: "Live", startTime: 1_700_000_000 } })).toBe(
      "📅 Event: Live — 2023-11-14 22:13",
    );
    const reply = mapMessage(
      wa({
        key: { remoteJid: PN, id: "IR" },
        message: {
          interactiveResponseMessage: {
            body: { text: "Suporte" },
            nativeFlowResponseMessage: { name: "menu", paramsJson: '{"id":"2"}' },
          },
        },
      }),
    );
    expect(reply).toMatchObject({ kind: "chat", body: "Suporte", selectedId: "2" });
    expect(
      body({ viewOnceMessageV2: { message: { imageMessage: { caption: "segredo", mimetype: "image/jpeg" } } } }),
    ).toBe("segredo");
    expect(body({ stickerPackMessage: { name: "pack" } })).toStartWith("⚠️ Unsupported message (stickerPackMessage)");
  });

  test("an undecryptable message waits under its id; view-once media the phone keeps is named", () => {
    expect(
      mapMessage(wa({ key: { remoteJid: PN, id: "C" }, messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT })),
    ).toMatchObject({ id: "C", kind: "waiting", body: WAITING_BODY });
    expect(mapMessage(wa({ key: { remoteJid: PN, id: "V1" } }, { isViewOnce: true } as never))).toMatchObject({
      kind: "chat",
      body: VIEW_ONCE_BODY,
    });
    expect(
      readUpsert(wa({ key: { remoteJid: PN, id: "P" }, message: { pollUpdateMessage: { vote: {} } } })),
    ).toMatchObject({ type: "ignored" });
  });

  test("ephemeral and view-once wrappers are unwrapped", () => {
    expect(
      mapMessage(
        wa({
          key: { remoteJid: PN, id: "E" },
          message: { ephemeralMessage: { message: { extendedTextMessage: { text: "some" } } } },
        }),
      ),
    ).toMatchObject({ kind: "chat", body: "some" });
    expect(
      mapMessage(
        wa({
          key: { remoteJid: PN, id: "VO" },
          message: { viewOnceMessageV2: { message: { imageMessage: { caption: "uma vez" } } } },
        }),
      ),
    ).toMatchObject({ kind: "image", body: "uma vez" });
  });

  test("group message: chat is the group, author from participantAlt phone, lid kept apart", () => {
    const m = mapMessage(
      wa(
        {
          key: { remoteJid: "120363000000000001@g.us", id: "G", participant: LID },
          pushName: "Caio",
          message: { conversation: "oi grupo" },
        },
        { participantAlt: PN },
      ),
    );
    expect(m).toMatchObject({
      chatId: "120363000000000001",
      isGroup: true,
      author: { phone: "5511999990001", name: "Caio" },
      lid: "123456789012345",
      participant: LID,
    });
  });

  test("LID chat takes the phone from remoteJidAlt, never the LID digits", () => {
    const m = mapMessage(
      wa({ key: { remoteJid: LID, id: "LID1" }, message: { conversation: "oi" } }, { remoteJidAlt: PN }),
    );
    expect(m).toMatchObject({ chatId: "5511999990001", lid: "123456789012345" });
  });

  test("LID chat uses Baileys' known mapping, and is addressed by its LID when no phone is known", () => {
    const msg = wa({ key: { remoteJid: LID, id: "LID2" }, pushName: "Duda", message: { conversation: "oi" } });
    expect(mapMessage(msg, (lid) => (lid === LID ? PN : undefined))?.chatId).toBe("5511999990001");
    expect(mapMessage(msg)).toMatchObject({
      chatId: "lid:123456789012345",
      lid: "123456789012345",
      pushName: "Duda",
      isGroup: false,
    });
  });

  test("a group member known only by LID is the author by LID; their reaction and missed call too", () => {
    const group = mapMessage(
      wa({
        key: { remoteJid: "120363000000000001@g.us", id: "GL", participant: LID },
        pushName: "Caio",
        message: { conversation: "oi" },
      }),
    );
    expect(group).toMatchObject({
      chatId: "120363000000000001",
      author: { phone: "lid:123456789012345", name: "Caio" },
      lid: "123456789012345",
    });
    const reaction = readUpsert(
      wa({
        key: { remoteJid: LID, id: "RL" },
        message: { reactionMessage: { text: "👍", key: { remoteJid: LID, id: "T1" } } },
      }),
    );
    expect(reaction).toMatchObject({ type: "reaction", reaction: { targetId: "T1", reactor: "lid:123456789012345" } });
    const call = missedCallOf(
      wa({ key: { remoteJid: LID, id: "CL" }, messageStubType: proto.WebMessageInfo.StubType.CALL_MISSED_VOICE }),
    );
    expect(call).toMatchObject({ id: "CL", from: "lid:123456789012345" });
  });

  test("button and list replies expose the selected id", () => {
    expect(
      mapMessage(
        wa({
          key: { remoteJid: PN, id: "B" },
          message: { buttonsResponseMessage: { selectedButtonId: "opt1", selectedDisplayText: "Vendas" } },
        }),
      ),
    ).toMatchObject({ body: "Vendas", selectedId: "opt1" });
    expect(
      mapMessage(
        wa({
          key: { remoteJid: PN, id: "LR" },
          message: { listResponseMessage: { title: "Suporte", singleSelectReply: { selectedRowId: "row2" } } },
        }),
      ),
    ).toMatchObject({ body: "Suporte", selectedId: "row2" });
  });

  test("revoke protocol messages are dropped from mapping and reported as revokes", () => {
    const m = wa({
      key: { remoteJid: PN, id: "P" },
      message: {
        protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: PN, id: "GONE" } },
      },
    });
    expect(mapMessage(m)).toBeNull();
    expect(revokedIdOf(m)).toBe("GONE");
  });

  test("status broadcast and system stubs are ignored with a reason", () => {
    expect(
      readUpsert(
        wa({ key: { remoteJid: "status@broadcast", id: "SB", participant: PN }, message: { conversation: "story" } }),
      ),
    ).toEqual({ type: "ignored", reason: "status, broadcast or newsletter" });
    expect(
      readUpsert(wa({ key: { remoteJid: PN, id: "S" }, messageStubType: proto.WebMessageInfo.StubType.E2E_ENCRYPTED })),
    ).toMatchObject({ type: "ignored" });
  });

  test("own message with LRM is dropped; own message without it keeps its ack", () => {
    expect(
      mapMessage(wa({ key: { remoteJid: PN, id: "O1", fromMe: true }, message: { conversation: "\u200eauto" } })),
    ).toBeNull();
    expect(
      mapMessage(
        wa({ key: { remoteJid: PN, id: "O2", fromMe: true }, status: 3, message: { conversation: "do celular" } }),
      ),
    ).toMatchObject({ fromMe: true, ack: 3 });
  });

  test("missed-call stub becomes a missed call, not a message", () => {
    const m = wa({
      key: { remoteJid: PN, id: "CALL1" },
      messageStubType: proto.WebMessageInfo.StubType.CALL_MISSED_VIDEO,
    });
    expect(mapMessage(m)).toBeNull();
    expect(missedCallOf(m)).toMatchObject({ id: "CALL1", from: "5511999990001", kind: "missed", isVideo: true });
  });

  test("stored raw rebuilds a quotable message", () => {
    const m = mapMessage(
      wa({
        key: { remoteJid: PN, id: "RQ" },
        message: { imageMessage: { caption: "x", mediaKey: new Uint8Array([1, 2, 3]) } },
      }),
    )!;
    const q = quotedFromRaw(m.raw!, { id: "RQ", remoteJid: PN, fromMe: false });
    expect(q.message?.imageMessage?.caption).toBe("x");
    expect([...(q.message?.imageMessage?.mediaKey ?? [])]).toEqual([1, 2, 3]);
  });
});

describe("baileys acks, calls and contacts mapping", () => {
  test("acks only move forward; error only replaces pending", () => {
    expect(nextAck(undefined, 1)).toBe(1);
    expect(nextAck(3, 4)).toBe(4);
    expect(nextAck(4, 3)).toBeUndefined();
    expect(nextAck(1, 0)).toBe(0);
    expect(nextAck(3, 0)).toBeUndefined();
  });

  test("group receipts: delivered 3, read 4, played 5", () => {
    expect(ackOfReceipt({ userJid: PN, receiptTimestamp: 1 })).toBe(3);
    expect(ackOfReceipt({ userJid: PN, readTimestamp: 1 })).toBe(4);
    expect(ackOfReceipt({ userJid: PN, playedTimestamp: 1 })).toBe(5);
  });

  test("call offer and timeout map to offer and missed, with the caller phone", () => {
    const base = {
      chatId: LID,
      from: LID,
      callerPn: PN,
      id: "K1",
      date: new Date(1000),
      offline: false,
      isVideo: false,
    };
    expect(mapCall({ ...base, status: "offer" })).toEqual({
      id: "K1",
      from: "5511999990001",
      at: 1000,
      kind: "offer",
      isVideo: false,
    });
    expect(mapCall({ ...base, status: "timeout" })?.kind).toBe("missed");
    expect(mapCall({ ...base, status: "accept" })).toBeNull();
    expect(mapCall({ ...base, callerPn: undefined, status: "offer" })?.from).toBe("lid:123456789012345");
  });

  test("contacts: phone from the PN id or phoneNumber, LID-only and groups skipped", () => {
    const out = mapContacts([
      { id: PN, notify: "Ana" },
      { id: LID, phoneNumber: "5511999990002@s.whatsapp.net", name: "Bia" },
      { id: "999999999999999@lid", notify: "Sem número" },
      { id: "120363000000000001@g.us", name: "Grupo" },
      { id: "status@broadcast" },
    ]);
    expect(out).toEqual([
      { phone: "5511999990001", name: "Ana" },
      { phone: "5511999990002", lid: "123456789012345", name: "Bia" },
    ]);
  });
});
