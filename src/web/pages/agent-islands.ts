import Contacts from "../../../islands/agent/Contacts";
import Dashboard from "../../../islands/agent/Dashboard";
import QuickAnswers from "../../../islands/agent/QuickAnswers";
import Reports from "../../../islands/agent/Reports";
import Schedules from "../../../islands/agent/Schedules";
import TicketFind from "../../../islands/agent/TicketFind";

/** Server-side components of the agent islands (`islands/agent/**`), merged into the island renderer. */
export const agentIslands = {
  AgentDashboard: Dashboard,
  AgentContacts: Contacts,
  AgentTicketFind: TicketFind,
  AgentQuickAnswers: QuickAnswers,
  AgentSchedules: Schedules,
  AgentReports: Reports,
};
