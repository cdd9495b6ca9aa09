/**
 * Never a blank pane: a render error anywhere below shows a message and a Reload button instead.
 * The message is generic; the error itself (which may hold a stack) is not shown.
 */
import { Button, makeStyles, tokens } from "@fluentui/react-components";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { carryFocus } from "./focusRescue.js";
import { MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from "./lazy.js";

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
}

export class PaneErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // For the developer console only.
    console.error("The task pane stopped on an error", error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return <PaneFailed onRetry={() => this.setState({ failed: false })} />;
  }
}

const useStyles = makeStyles({
  root: { padding: tokens.spacingHorizontalM },
});

function PaneFailed({ onRetry }: { onRetry(): void }) {
  const styles = useStyles();
  return (
    <main className={styles.root}>
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>The add-in stopped on an unexpected problem.</MessageBarTitle>
          Reload it to carry on; your workbook is not affected.
        </MessageBarBody>
        <MessageBarActions>
          <Button ref={carryFocus("error-boundary-retry")} onClick={onRetry}>
            Try again
          </Button>
          <Button
            ref={carryFocus("error-boundary-reload")}
            appearance="primary"
            onClick={() => window.location.reload()}
          >
            Reload
          </Button>
        </MessageBarActions>
      </MessageBar>
    </main>
  );
}
