/** What the API and the socket send, shared by the server that builds it and the islands that read it. */
export type { Connection, ConnectionDto } from "./connections";
export type { Contact, ContactDto } from "./contacts";
export type { Message, MessageDto, MessagePageDto } from "./messages";
export { ONBOARDING_STEPS, type OnboardingDto, onboardingDone } from "./onboarding";
export { PROVIDERS, type Provider } from "./providers";
export type { QuickAnswer, QuickAnswerDto } from "./quick-answers";
export type { ChatbotOption, Queue, QueueDto, QueueOption } from "./queues";
export type { Schedule, ScheduleDto } from "./schedules";
export type {
  BulkRecordDto,
  BulkSettingsDto,
  ConnectionSessionDto,
  OptOutDto,
  SandboxChange,
  ServerEvents,
  SettingDto,
} from "./server-events";
export type { ClientMessage, EventName, Frame } from "./socket";
export type { Tag, TagDto } from "./tags";
export type { Ticket, TicketDto, TicketPageDto, TicketStatus } from "./tickets";
export type { User, UserDto } from "./users";
export { toWire, type Wire } from "./wire";
