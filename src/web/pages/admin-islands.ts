import Connections from "../../../islands/admin/Connections";
import Queues from "../../../islands/admin/Queues";
import Settings from "../../../islands/admin/Settings";
import Tags from "../../../islands/admin/Tags";
import Users from "../../../islands/admin/Users";
import BulkMessage from "../../../islands/bulk/BulkMessage";
import BulkSettings from "../../../islands/bulk/SettingsMessage";
import BulkReport from "../../../islands/bulk/ShippingReport";

/** Server-side components of the administration islands (`islands/admin/**`), merged into the island renderer. */
export const adminIslands = { AdminConnections: Connections, AdminUsers: Users, AdminQueues: Queues, AdminSettings: Settings, AdminTags: Tags, BulkMessage, BulkSettings, BulkReport };
