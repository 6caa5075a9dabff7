/** A connection as GET /api/whatsapp and the `whatsapp`/`whatsappSession` events carry it. */
export interface Connection {
  id: number;
  name: string;
  provider: "baileys" | "sandbox";
  status: string;
  qrcode: string;
  isDefault: boolean;
  updatedAt: string | number;
  greetingMessage: string;
  farewellMessage: string;
  transferTicketMessage: string;
  outOfWorkMessage: string;
  wavoip?: string;
  defineWorkHours: boolean;
  startWorkHour: string;
  endWorkHour: string;
  startWorkHourWeekend: string;
  endWorkHourWeekend: string;
  monday: boolean;
  tuesday: boolean;
  wednesday: boolean;
  thursday: boolean;
  friday: boolean;
  saturday: boolean;
  sunday: boolean;
  importHistory: boolean;
  importHistoryDays: number;
  queues?: { id: number; name: string; color: string }[];
}

/** A queue as GET /api/queue lists it. */
export interface Queue {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
}

/** A chatbot option of a queue's tree (ids only on saved options). */
export interface ChatbotOption {
  id?: number;
  name: string;
  greetingMessage: string;
  isAgent: boolean;
  userId: number | null;
  options: ChatbotOption[];
}

/** A user as GET /api/users carries it. */
export interface User {
  id: number;
  name: string;
  email: string;
  profile: "admin" | "user";
  whatsappId: number | null;
  whatsapp?: { id: number; name: string } | null;
  queues: { id: number; name: string; color: string }[];
}

/** A tag as GET /api/tags carries it. */
export interface Tag {
  id: number;
  name: string;
  color: string;
  ticketsCount?: number;
}
