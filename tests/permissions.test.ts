import { describe, expect, test } from "bun:test";
import { can, PERMISSIONS } from "../src/shared/permissions";

describe("permission table", () => {
  test("admins hold every permission, case-insensitively", () => {
    for (const p of PERMISSIONS) {
      expect(can("admin", p)).toBe(true);
      expect(can("ADMIN", p)).toBe(true);
    }
  });

  test("agents and unknown roles hold none of the admin-only permissions", () => {
    for (const p of ["tickets-manager:showall", "ticket-options:deleteTicket", "ticket-options:transferWhatsapp", "users:manage"] as const) {
      expect(can("user", p)).toBe(false);
      expect(can("supervisor", p)).toBe(false);
      expect(can(undefined, p)).toBe(false);
    }
  });
});
