import { describe, expect, test } from "bun:test";
import { fileSize } from "../islands/chat/AttachmentPreview";
import { neighbourTicket } from "../islands/tickets/use-alt-arrows";

describe("Alt+↑/↓ neighbour in the ticket list", () => {
  const ids = [30, 20, 10];
  test("the next and previous ticket of the one open", () => {
    expect(neighbourTicket(ids, 20, 1)).toBe(10);
    expect(neighbourTicket(ids, 20, -1)).toBe(30);
  });
  test("nothing past either end of the list", () => {
    expect(neighbourTicket(ids, 10, 1)).toBeNull();
    expect(neighbourTicket(ids, 30, -1)).toBeNull();
  });
  test("the first ticket when none of the list is open, nothing when the list is empty", () => {
    expect(neighbourTicket(ids, null, 1)).toBe(30);
    expect(neighbourTicket(ids, 99, -1)).toBe(30);
    expect(neighbourTicket([], 20, 1)).toBeNull();
  });
});

describe("the size shown for a file waiting to be sent", () => {
  test("bytes, kilobytes rounded and megabytes with one decimal", () => {
    expect(fileSize(820)).toBe("820 B");
    expect(fileSize(14 * 1024 + 100)).toBe("14 KB");
    expect(fileSize(3.2 * 1024 * 1024)).toBe("3.2 MB");
  });
});
