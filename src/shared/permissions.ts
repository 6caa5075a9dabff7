/**
 * The static permission table per role. The server checks it on every route; the UI uses the
 * same table to hide what a role may not do. Unknown roles get nothing.
 */
export const PERMISSIONS = [
  "drawer-admin-items:view",
  "tickets-manager:showall",
  "user-modal:editProfile",
  "user-modal:editQueues",
  "contacts-page:deleteContact",
  "ticket-options:transferWhatsapp",
  "ticket-options:deleteTicket",
  "users:manage",
  "queues:manage",
  "connections:manage",
  "settings:manage",
  "bulk:manage",
  "tags:edit",
  "schedules:editAny",
  "sandbox:use",
  "quick-answers:edit",
] as const;

export type Permission = (typeof PERMISSIONS)[number];
export type Role = "admin" | "user";

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  user: [],
};

/** True when a user with `profile` may do `permission`; profiles compare case-insensitively. */
export function can(profile: string | null | undefined, permission: Permission): boolean {
  const role = (profile ?? "").toLowerCase() as Role;
  return ROLE_PERMISSIONS[role]?.includes(permission) ?? false;
}

export function isAdmin(profile: string | null | undefined): boolean {
  return (profile ?? "").toLowerCase() === "admin";
}
