import Connections from "../../../islands/admin/Connections";
import Queues from "../../../islands/admin/Queues";
import Settings from "../../../islands/admin/Settings";
import Tags from "../../../islands/admin/Tags";
import Users from "../../../islands/admin/Users";
import Webhooks from "../../../islands/admin/Webhooks";
import BulkMessage from "../../../islands/bulk/BulkMessage";
import BulkSettings from "../../../islands/bulk/SettingsMessage";
import BulkReport from "../../../islands/bulk/ShippingReport";

/** Server-side components of the administration islands (`islands/admin/**`, `islands/bulk/**`), merged into the island renderer. */
export const adminIslands = {
  AdminConnections: Connections,
  AdminUsers: Users,
  AdminQueues: Queues,
  AdminSettings: Settings,
  AdminTags: Tags,
  AdminWebhooks: Webhooks,
  BulkMessage,
  BulkSettings,
  BulkReport,
};
