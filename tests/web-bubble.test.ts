import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Bubble } from "../islands/Bubble";
import type { Message } from "../src/shared/contracts";
import { i18nFor } from "../src/i18n/server";

const t = i18nFor("en").t;
const message = (m: Partial<Message>): Message => ({
  id: 1,
  wid: "W1",
  whatsappId: 1,
  ticketId: 1,
  contactId: null,
  body: "",
  fromMe: false,
  read: true,
  ack: 0,
  mediaType: "image",
  mediaUrl: null,
  mediaMime: null,
  fileName: null,
  mediaState: null,
  isDeleted: false,
  isEdited: false,
  isPrivate: false,
  quotedMsgId: null,
  remoteJid: null,
  participant: null,
  senderName: null,
  dataJson: null,
  sendState: null,
  sendError: null,
  createdAt: "2026-03-01T09:00:00.000Z",
  updatedAt: "2026-03-01T09:00:00.000Z",
  contact: null,
  quotedMsg: null,
  reactions: [],
  ...m,
});
const html = (m: Partial<Message>) =>
  renderToStaticMarkup(createElement(Bubble, { m: message(m), t, onReply: () => {} }));

describe("media bubbles", () => {
  test("media still downloading shows a spinner and says so, with a document's name", () => {
    const out = html({ mediaState: "downloading", mediaType: "document", fileName: "nota.pdf", body: "nota.pdf" });
    expect(out).toContain('class="spinner"');
    expect(out).toContain("Downloading…");
    expect(out).toContain("nota.pdf");
    expect(out).not.toContain("media-file");
  });

  test("media that could not be downloaded says it is unavailable, keeping the caption", () => {
    const out = html({ mediaState: "unavailable", body: "comprovante" });
    expect(out).toContain("Media unavailable");
    expect(out).toContain("comprovante");
    expect(out).not.toContain("spinner");
  });
});

describe("document captions", () => {
  const doc = { mediaType: "document", mediaUrl: "/api/media/1", fileName: "boleto-março.pdf" };

  test("a document sent or received with a caption shows the caption under its name", () => {
    const out = html({ ...doc, fromMe: true, body: "Segue o boleto de março" });
    expect(out).toContain("boleto-março.pdf");
    expect(out).toContain('<span class="text">Segue o boleto de março</span>');
  });

  test("a document's own name or title is no caption", () => {
    expect(html({ ...doc, fromMe: true, body: "boleto-março.pdf" })).not.toContain('class="text"');
    expect(html({ ...doc, body: "boleto-março" })).not.toContain('class="text"');
  });
});

describe("private notes", () => {
  test("a note is styled as a note with its author, and shows neither ticks nor a reply button", () => {
    const out = html({ isPrivate: true, fromMe: true, mediaType: "chat", body: "ligar amanhã", senderName: "Bia" });
    expect(out).toContain('class="bubble me note"');
    expect(out).toContain("Private note · Bia");
    expect(out).not.toContain('class="ack');
    expect(out).not.toContain("reply-button");
  });

  test("a message sent to the contact keeps its ticks and no note label", () => {
    const out = html({ fromMe: true, mediaType: "chat", body: "Olá", ack: 3 });
    expect(out).toContain('class="bubble me"');
    expect(out).toContain('class="ack');
    expect(out).not.toContain("Private note");
  });
});
