/**
 * Fluent components the pane's first screen shows only now and then (a load error or a warning, a
 * busy button, the loading placeholder): one chunk, loaded the first time one of them renders or
 * when the browser is idle after the first list (lazy.tsx), never in the first script.
 */
export {
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Skeleton,
  SkeletonItem,
  Spinner,
} from "@fluentui/react-components";
