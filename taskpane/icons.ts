/**
 * The few Fluent icons the pane uses, in one place. `@fluentui/react-icons` is what every Fluent v9
 * component already depends on; named imports keep only these icons in the bundle.
 */
export {
  AddRegular as AddIcon,
  ArrowClockwiseRegular as RefreshIcon,
  ChatAddRegular as NewConversationIcon,
  DeleteRegular as RemoveIcon,
  LinkDismissRegular as DisconnectIcon,
  MoreHorizontalRegular as MoreIcon,
  SendRegular as SendIcon,
  SettingsRegular as SettingsIcon,
  StopRegular as StopIcon,
} from "@fluentui/react-icons";
