import { describe, expect, test } from "bun:test";
import { can } from "../src/shared/permissions";

describe("permission table", () => {
  test("the role is compared case-insensitively", () => {
    expect(can("ADMIN", "users:manage")).toBe(true);
    expect(can("Admin", "tickets-manager:showall")).toBe(true);
  });

  test("agents and unknown roles hold none of the admin-only permissions", () => {
    for (const p of [
      "tickets-manager:showall",
      "ticket-options:deleteTicket",
      "ticket-options:transferWhatsapp",
      "users:manage",
    ] as const) {
      expect(can("user", p)).toBe(false);
      expect(can("supervisor", p)).toBe(false);
      expect(can(undefined, p)).toBe(false);
    }
  });
});
