import type {
  AiFeature,
  AiReplyToTranslate,
  AiSettingsDto,
  AiSettingsUpdate,
  AiSummaryDto,
  AiTestDto,
  AiTranslationDto,
  AiUsageDto,
} from "./ai";
import type { LoginCredentials, NewAccount, SessionDto } from "./auth";
import type { BulkRecipient, BulkSettingsChanges, BulkStoredDto } from "./bulk";
import type { ConnectionChanges, ConnectionDto, NewConnection } from "./connections";
import type { DashboardDto } from "./dashboard";
import type { ContactByNumber, ContactChanges, ContactDto, ContactNameQuery, NewContact } from "./contacts";
import type { OffsiteStatusDto } from "./backups";
import type { SignedLink } from "./links";
import type {
  ForwardRequest,
  MessageDto,
  MessagePageDto,
  MessagePageQuery,
  OutgoingMessage,
  ReactRequest,
} from "./messages";
import type { AgentPresence, ChatPresence, SandboxPresence } from "./presence";
import type { NewQueue, QueueChanges, QueueDeleteQuery, QueueDto } from "./queues";
import type { NewQuickAnswer, QuickAnswerChanges, QuickAnswerDto } from "./quick-answers";
import type { ReportQuery, ReportSummaryDto } from "./reports";
import type { SandboxInbound, SandboxLidMapping, SandboxRead, SandboxReject } from "./sandbox";
import type { BulkSettingsDto, SettingDto } from "./server-events";
import type { NewSchedule, ScheduleChanges, ScheduleDto } from "./schedules";
import type { SettingValue } from "./settings";
import type { NewTag, TagChanges, TagDto } from "./tags";
import type { TicketEventPageDto, TicketEventQuery } from "./ticket-events";
import type {
  ContactTicketPageDto,
  ContactTicketQuery,
  NewTicket,
  TicketChanges,
  TicketDraftChanges,
  TicketDraftDto,
  TicketDto,
  TicketListQuery,
  TicketPageDto,
  TicketSnooze,
  TicketTags,
} from "./tickets";
import type { AvailabilityChoice, NewUser, UserChanges, UserDto } from "./users";
import type { NewWebhook, WebhookChanges, WebhookEndpointDto } from "./webhooks";

/** The answer of a route that only confirms. */
interface Done {
  message: string;
}

/**
 * The API routes the islands call through callApi, by "METHOD /path" under /api (parameters as the server
 * names them): what each takes and what it answers, as the server builds it (islands read `Wire<answer>`).
 * tests/api-contract.test.ts checks every entry against the server's own route.
 */
export interface ApiRoutes {
  "GET /ai/features": { answer: { features: AiFeature[] } };
  "GET /ai/settings": { answer: AiSettingsDto };
  "PUT /ai/settings": { body: AiSettingsUpdate; answer: AiSettingsDto };
  "POST /ai/test": { answer: AiTestDto };
  "GET /ai/usage": { answer: AiUsageDto };
  "POST /tickets/:id/ai/summary": { answer: AiSummaryDto };
  "POST /tickets/:id/ai/translate-reply": { body: AiReplyToTranslate; answer: AiTranslationDto };
  "POST /messages/:id/ai/translate": { answer: AiTranslationDto };
  "POST /auth/login": { body: LoginCredentials; answer: SessionDto };
  "POST /auth/signup": { body: NewAccount; answer: UserDto };
  "GET /backups/offsite": { answer: OffsiteStatusDto };
  "POST /backups/:name/link": { answer: SignedLink };
  "POST /bulkMessage": { body: BulkRecipient[]; answer: BulkStoredDto };
  "POST /contact": { body: ContactByNumber; answer: ContactDto };
  "POST /contacts": { body: NewContact; answer: ContactDto };
  "PUT /contacts/:id": { body: ContactChanges; answer: ContactDto };
  "GET /contacts/list": { query: ContactNameQuery; answer: ContactDto[] };
  "GET /contacts/:id/tickets": { query: ContactTicketQuery; answer: ContactTicketPageDto };
  "GET /dashboard": { answer: DashboardDto };
  "GET /messages/:ticketId": { query: MessagePageQuery; answer: MessagePageDto };
  "POST /messages/:id": { body: OutgoingMessage | FormData; answer: { ok: boolean; messages: MessageDto[] } };
  "POST /messages/:id/forward": { body: ForwardRequest; answer: { ok: boolean; messages: MessageDto[] } };
  "POST /messages/:id/react": { body: ReactRequest; answer: MessageDto };
  "POST /queue": { body: NewQueue; answer: QueueDto };
  "PUT /queue/:id": { body: QueueChanges; answer: QueueDto };
  "DELETE /queue/:id": { query: QueueDeleteQuery; answer: Done };
  "POST /quickAnswers": { body: NewQuickAnswer; answer: QuickAnswerDto };
  "PUT /quickAnswers/:id": { body: QuickAnswerChanges; answer: QuickAnswerDto };
  "GET /reports/summary": { query: ReportQuery; answer: ReportSummaryDto };
  "POST /sandbox/:whatsappId/inbound": { body: SandboxInbound; answer: { id: string } };
  "POST /sandbox/:whatsappId/read": { body: SandboxRead; answer: Done };
  "POST /sandbox/:whatsappId/reject": { body: SandboxReject; answer: Done };
  "POST /sandbox/:whatsappId/lid-mapping": { body: SandboxLidMapping; answer: Done };
  "POST /sandbox/:whatsappId/presence": { body: SandboxPresence; answer: Done };
  "GET /sandbox/:whatsappId/presence": { query: { to: string }; answer: { to: string; state: ChatPresence | null } };
  "POST /schedules": { body: NewSchedule; answer: ScheduleDto };
  "PUT /schedules/:id": { body: ScheduleChanges; answer: ScheduleDto };
  "PUT /settings/:key": { body: SettingValue; answer: SettingDto };
  "POST /settingsMessage": { body: BulkSettingsChanges; answer: BulkSettingsDto };
  "POST /tags": { body: NewTag; answer: TagDto };
  "PUT /tags/:id": { body: TagChanges; answer: TagDto };
  "POST /tags/sync": { body: TicketTags; answer: TicketDto };
  "GET /tickets": { query: TicketListQuery; answer: TicketPageDto };
  "POST /tickets": { body: NewTicket; answer: TicketDto };
  "PUT /tickets/:id": { body: TicketChanges; answer: TicketDto };
  "GET /tickets/drafts": { answer: TicketDraftDto[] };
  "GET /tickets/:id/draft": { answer: TicketDraftDto };
  "PUT /tickets/:id/draft": { body: TicketDraftChanges; answer: TicketDraftDto };
  "DELETE /tickets/:id/draft": { answer: TicketDraftDto };
  "GET /tickets/:id/events": { query: TicketEventQuery; answer: TicketEventPageDto };
  "POST /tickets/:id/snooze": { body: TicketSnooze; answer: TicketDto };
  "DELETE /tickets/:id/snooze": { answer: TicketDto };
  "POST /tickets/:id/presence": { body: { state: AgentPresence }; answer: { ok: boolean } };
  "POST /users": { body: NewUser; answer: UserDto };
  "PUT /users/:id": { body: UserChanges; answer: UserDto };
  "PUT /users/:id/availability": { body: AvailabilityChoice; answer: UserDto };
  "POST /webhooks": { body: NewWebhook; answer: WebhookEndpointDto };
  "PUT /webhooks/:id": { body: WebhookChanges; answer: WebhookEndpointDto };
  "POST /whatsapp": { body: NewConnection; answer: ConnectionDto };
  "PUT /whatsapp/:id": { body: ConnectionChanges; answer: ConnectionDto };
}

export type ApiRoute = keyof ApiRoutes;

type PathOf<R> = R extends `${string} ${infer P}` ? P : never;
type ParamNames<P> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of a route's path parameters, by name. */
export type RouteParams<R extends ApiRoute> = Record<ParamNames<PathOf<R>>, string | number>;

/** The body a route takes, or `undefined` for one that takes none. */
export type RouteBody<R extends ApiRoute> = ApiRoutes[R] extends { body: infer B } ? B : undefined;

/** The query a route takes, or `undefined` for one that takes none. */
export type RouteQuery<R extends ApiRoute> = ApiRoutes[R] extends { query: infer Q } ? Q : undefined;

/** What a route answers, as the server builds it. */
export type RouteAnswer<R extends ApiRoute> = ApiRoutes[R]["answer"];

/** A route's method and its path under /api, parameters filled in (each encoded as a URL component). */
export function routeTarget<R extends ApiRoute>(route: R, params: RouteParams<R>): { method: string; path: string } {
  const [method, template] = route.split(" ") as [string, string];
  const values = params as Record<string, string | number>;
  return { method, path: template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(values[name]))) };
}
