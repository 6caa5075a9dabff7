import type { Wire } from "./wire";
/** A queue as GET /queue lists it (without its chatbot tree). */
export interface QueueDto {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  /** SLA target for an agent's first reply to the customer, in minutes; 0 = none. */
  firstResponseMinutes: number;
  /** SLA target for resolving a ticket (from its creation or reopening), in minutes; 0 = none. */
  resolutionMinutes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The part of a queue a picker or a filter shows. */
export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

/** A chatbot option of a queue's tree as the queue editor holds it (ids only on saved options). */
export interface ChatbotOption {
  id?: number;
  name: string;
  greetingMessage: string;
  isAgent: boolean;
  userId: number | null;
  options: ChatbotOption[];
}

/** A saved chatbot option with its whole subtree. */
export interface ChatbotDto {
  id: number;
  name: string;
  greetingMessage: string;
  isAgent: boolean;
  userId: number | null;
  queueId: number | null;
  parentId: number | null;
  options: ChatbotDto[];
}

/** A queue with its whole chatbot tree (GET /queue/:id, and the `queue` socket event). */
export interface QueueWithChatbotsDto extends QueueDto {
  chatbots: ChatbotDto[];
}

/** A queue as an island receives it. */
export type Queue = Wire<QueueDto>;

/** A chatbot option as the queue form sends it, with its nested options; `id` names an option already saved. */
export interface ChatbotOptionInput {
  id?: number;
  name: string;
  greetingMessage?: string;
  isAgent?: boolean;
  userId?: number | null;
  options?: ChatbotOptionInput[];
}

/** POST /queue; `chatbots`, when sent, is the queue's whole chatbot tree. */
export interface NewQueue {
  name: string;
  color: string;
  greetingMessage?: string;
  chatbots?: ChatbotOptionInput[];
  /** SLA targets in minutes (0 = none, the default). */
  firstResponseMinutes?: number;
  resolutionMinutes?: number;
}

/** PUT /queue/:id: the fields that change. */
export type QueueChanges = Partial<NewQueue>;

/** DELETE /queue/:id: the queue its tickets move to, else they are left without one. */
export interface QueueDeleteQuery {
  moveTo?: number;
}
