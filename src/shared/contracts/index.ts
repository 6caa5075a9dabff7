/**
 * What the API and the socket carry, shared by the server that builds or validates it and the islands that send
 * or read it.
 */
export {
  AI_FEATURES,
  type AiCallDto,
  type AiCallKind,
  type AiFeature,
  type AiReplyToTranslate,
  type AiSettingsDto,
  type AiSettingsUpdate,
  type AiSummaryDto,
  type AiTestDto,
  type AiTranslationDto,
  type AiUsageDto,
} from "./ai";
export type { LoginCredentials, NewAccount, SessionDto } from "./auth";
export type { BulkRecipient, BulkSettingsChanges, BulkStoredDto } from "./bulk";
export type { Connection, ConnectionChanges, ConnectionDto, NewConnection } from "./connections";
export type {
  Contact,
  ContactByNumber,
  ContactChanges,
  ContactDto,
  ContactExtraField,
  ContactNameQuery,
  NewContact,
} from "./contacts";
export type { DashboardDto, TeamMemberDto } from "./dashboard";
export type { OffsiteStatusDto } from "./backups";
export type { SignedLink } from "./links";
export type { ListQuery } from "./list-query";
export type { Message, MessageDto, MessagePageDto, MessagePageQuery, OutgoingMessage } from "./messages";
export { ONBOARDING_STEPS, type OnboardingDto, onboardingDone } from "./onboarding";
export { PROVIDERS, type Provider } from "./providers";
export type { NewQuickAnswer, QuickAnswer, QuickAnswerChanges, QuickAnswerDto } from "./quick-answers";
export type {
  ChatbotOption,
  ChatbotOptionInput,
  NewQueue,
  Queue,
  QueueAssignment,
  QueueChanges,
  QueueDeleteQuery,
  QueueDto,
  QueueOption,
} from "./queues";
export {
  type ApiRoute,
  type ApiRoutes,
  type RouteAnswer,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  routeTarget,
} from "./routes";
export {
  SANDBOX_MESSAGE_KINDS,
  type SandboxInbound,
  type SandboxLidMapping,
  type SandboxMessageKind,
  type SandboxRead,
  type SandboxReject,
} from "./sandbox";
export type { NewSchedule, Schedule, ScheduleChanges, ScheduleDto } from "./schedules";
export type {
  BulkRecordDto,
  BulkSettingsDto,
  ConnectionSessionDto,
  OptOutDto,
  SandboxChange,
  ServerEvents,
  SettingDto,
} from "./server-events";
export type { SettingValue } from "./settings";
export type { ClientMessage, EventName, Frame, ServerEvent } from "./socket";
export type { NewTag, Tag, TagChanges, TagDto } from "./tags";
export {
  type NamedRef,
  TICKET_EVENT_CAUSES,
  TICKET_EVENT_KINDS,
  type TicketEvent,
  type TicketEventCause,
  type TicketEventDto,
  type TicketEventKind,
  type TicketEventPageDto,
  type TicketEventQuery,
  type TicketEventSide,
} from "./ticket-events";
export type {
  ContactTicketDto,
  ContactTicketPageDto,
  ContactTicketQuery,
  NewTicket,
  Ticket,
  TicketChanges,
  TicketDto,
  TicketListQuery,
  TicketPageDto,
  TicketPreview,
  TicketPreviewKind,
  TicketSearchMatch,
  TicketSla,
  SlaTarget,
  TicketStatus,
  TicketTags,
} from "./tickets";
export {
  AVAILABILITIES,
  type Availability,
  type AvailabilityChoice,
  type DefaultConnection,
  type NewUser,
  type User,
  type UserChanges,
  type UserDto,
} from "./users";
export type { NewWebhook, WebhookChanges, WebhookEndpointDto } from "./webhooks";
export { toWire, type Wire } from "./wire";
