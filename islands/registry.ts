import type { ComponentType } from "react";

/** Island name → lazy loader; Bun's splitting turns each import() into its own chunk. */
export const islandLoaders = {
  LoginForm: () => import("./LoginForm"),
  SignupForm: () => import("./SignupForm"),
  UserMenu: () => import("./UserMenu"),
  NavToggle: () => import("./NavToggle"),
  NotificationsBell: () => import("./NotificationsBell"),
  TicketsManager: () => import("./TicketsManager"),
  Chat: () => import("./Chat"),
  SandboxPhone: () => import("./SandboxPhone"),
  ConnectionsBadge: () => import("./ConnectionsBadge"),
  AgentDashboard: () => import("./agent/Dashboard"),
  AgentContacts: () => import("./agent/Contacts"),
  AgentTicketFind: () => import("./agent/TicketFind"),
  AgentQuickAnswers: () => import("./agent/QuickAnswers"),
  AgentSchedules: () => import("./agent/Schedules"),
  AgentReports: () => import("./agent/Reports"),
  AdminConnections: () => import("./admin/Connections"),
  AdminUsers: () => import("./admin/Users"),
  AdminQueues: () => import("./admin/Queues"),
  AdminSettings: () => import("./admin/Settings"),
  AdminTags: () => import("./admin/Tags"),
  AdminWebhooks: () => import("./admin/Webhooks"),
  BulkMessage: () => import("./bulk/BulkMessage"),
  BulkSettings: () => import("./bulk/SettingsMessage"),
  BulkReport: () => import("./bulk/ShippingReport"),
} satisfies Record<string, () => Promise<{ default: ComponentType<never> }>>;

export type IslandName = keyof typeof islandLoaders;
