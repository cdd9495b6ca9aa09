/**
 * The Settings form's write-only secret fields: never filled back, never offered to autofill, and
 * read only on save.
 */
import { Input, type InputProps } from "@fluentui/react-components";
import type { ElementType, RefObject } from "react";

/**
 * A write-only secret: never filled back, never offered to the browser's autofill, and
 * uncontrolled. Fluent's Input always hands its `<input>` a `value`, which React mirrors into the
 * `value` attribute; the render function drops it, so what is typed lives only in the field's
 * value property and is read on save.
 */
export function SecretInput(props: { inputRef: RefObject<HTMLInputElement | null>; placeholder: string }) {
  return (
    <Input
      type="password"
      placeholder={props.placeholder}
      autoComplete="off"
      input={uncontrolledInputSlot(props.inputRef)}
    />
  );
}

/**
 * The input slot with a render function (Fluent's slot API; its types allow none on an `<input>`,
 * which has no children): it renders the element with every prop but `value`.
 */
function uncontrolledInputSlot(ref: RefObject<HTMLInputElement | null>): InputProps["input"] {
  const render = (Element: ElementType, { value: _value, ...rest }: Record<string, unknown>) => (
    <Element {...rest} ref={ref} />
  );
  return { children: render } as unknown as InputProps["input"];
}
