import { describe, expect, test } from "bun:test";
import { generateWAMessageFromContent, proto, type WACallEvent, type WAMessage } from "baileys";
import { eventCopy, fromEventJson, toEventJson } from "../../src/channels/baileys/event-json";
import { readUpsert } from "../../src/channels/baileys/upsert";
import { mediaInfo } from "../../src/channels/baileys/media";

const roundTrip = <T>(value: T): T => fromEventJson<T>(toEventJson(value));

/** An inbound image as Baileys emits it: a plain message around a decoded proto (bytes, a Long length). */
function inboundImage(): WAMessage {
  const content = proto.Message.decode(
    proto.Message.encode({
      imageMessage: {
        url: "https://mmg.whatsapp.net/x.enc",
        mimetype: "image/jpeg",
        caption: "comprovante",
        mediaKey: Buffer.alloc(32, 7),
        fileSha256: Buffer.alloc(32, 1),
        fileEncSha256: Buffer.alloc(32, 2),
        fileLength: 123456789,
        jpegThumbnail: Buffer.from([1, 2, 3]),
        contextInfo: { stanzaId: "Q-1" },
      },
    }).finish(),
  );
  return {
    key: {
      remoteJid: "123456789012345@lid",
      remoteJidAlt: "5511988887777@s.whatsapp.net",
      fromMe: false,
      id: "IMG-1",
      addressingMode: "lid",
    },
    messageTimestamp: 1767225600,
    pushName: "Ana",
    message: content,
  } as WAMessage;
}

describe("Baileys events as JSON", () => {
  test("a copy is written as the original is, and changing it leaves the original alone", () => {
    const m = inboundImage();
    const copy = eventCopy<WAMessage>(m);
    expect(toEventJson(copy)).toBe(toEventJson(m));
    copy.key.remoteJid = "5511988887777@s.whatsapp.net";
    copy.message!.imageMessage!.caption = "outro";
    expect(m.key.remoteJid).toBe("123456789012345@lid");
    expect(m.message!.imageMessage!.caption).toBe("comprovante");
  });

  test("an inbound media message comes back with its bytes, its length as a number and the key's alternate jid", () => {
    const m = inboundImage();
    const back = roundTrip(m);
    expect(back.key).toEqual(m.key);
    const image = back.message!.imageMessage!;
    expect(Buffer.isBuffer(image.mediaKey)).toBe(true);
    expect(Buffer.from(image.mediaKey!).equals(Buffer.alloc(32, 7))).toBe(true);
    expect(image.fileLength).toBe(123456789);
    expect(proto.Message.encode(proto.Message.fromObject(back.message!)).finish()).toEqual(
      proto.Message.encode(m.message!).finish(),
    );
    expect(mediaInfo(back)).toEqual(mediaInfo(m));
  });

  test("it reads as the same message, raw content included", () => {
    const m = inboundImage();
    const lidToPn = () => undefined;
    expect(readUpsert(roundTrip(m), lidToPn)).toEqual(readUpsert(m, lidToPn));
  });

  test("an own message built by Baileys (a proto instance with a Long time) keeps its status", () => {
    const own = generateWAMessageFromContent(
      "5511988887777@s.whatsapp.net",
      { conversation: "olá" },
      { userJid: "5511900000000@s.whatsapp.net" },
    );
    own.status = proto.WebMessageInfo.Status.SERVER_ACK;
    const back = roundTrip(own);
    expect(back.key).toEqual({ remoteJid: "5511988887777@s.whatsapp.net", fromMe: true, id: own.key.id });
    expect(back.status).toBe(2);
    expect(typeof back.messageTimestamp).toBe("number");
    expect(readUpsert(back)).toEqual(readUpsert(own));
  });

  test("a revoke update keeps its null message, and a call its date", () => {
    const update = {
      key: { remoteJid: "5511988887777@s.whatsapp.net", id: "X", fromMe: false },
      update: { message: null, messageStubType: 1 },
    };
    expect(roundTrip(update)).toEqual(update);
    const call: WACallEvent = {
      chatId: "5511988887777@s.whatsapp.net",
      from: "5511988887777@s.whatsapp.net",
      id: "CALL-1",
      date: new Date(1767225600000),
      offline: false,
      status: "offer",
    };
    expect(new Date(roundTrip(call).date).getTime()).toBe(1767225600000);
  });
});
