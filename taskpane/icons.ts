/**
 * The few Fluent icons the pane uses, in one place. Each comes from its own module of
 * `@fluentui/react-icons` (what every Fluent v9 component already depends on): the package's root
 * module holds every icon, which a production build tree-shakes but the dev server of `npm start`
 * would load whole (about 17 MB) on every page load.
 */
export { AddRegular as AddIcon } from "@fluentui/react-icons/svg/add";
export { ArrowClockwiseRegular as ReloadIcon } from "@fluentui/react-icons/svg/arrow-clockwise";
export { ArrowSyncRegular as RefreshIcon } from "@fluentui/react-icons/svg/arrow-sync";
export { ChatAddRegular as NewConversationIcon } from "@fluentui/react-icons/svg/chat-add";
export { DeleteRegular as RemoveIcon } from "@fluentui/react-icons/svg/delete";
export { LinkDismissRegular as DisconnectIcon } from "@fluentui/react-icons/svg/link-dismiss";
export { MoreHorizontalRegular as MoreIcon } from "@fluentui/react-icons/svg/more-horizontal";
export { SendRegular as SendIcon } from "@fluentui/react-icons/svg/send";
export { SettingsRegular as SettingsIcon } from "@fluentui/react-icons/svg/settings";
export { StopRegular as StopIcon } from "@fluentui/react-icons/svg/stop";
export { TableCursorRegular as SelectIcon } from "@fluentui/react-icons/svg/table-cursor";
