/** The socket protocol lives in the shared contract; the server code keeps importing it from here. */
export type { ClientMessage, EventName, Frame, ServerEvent } from "../shared/contracts/socket";
export type { ServerEvents } from "../shared/contracts/server-events";
