import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Bubble } from "../islands/Bubble";
import type { Message } from "../islands/lib/types";
import { i18nFor } from "../src/i18n/server";

const t = i18nFor("en").t;
const message = (m: Partial<Message>): Message => ({
  id: 1,
  body: "",
  fromMe: false,
  ack: 0,
  mediaType: "image",
  mediaUrl: null,
  isDeleted: false,
  createdAt: "2026-03-01T09:00:00.000Z",
  ticketId: 1,
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
