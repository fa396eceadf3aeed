import type { ReactNode } from 'react';

/** The id of a field's message line, for the control's `aria-describedby`. */
export const messageId = (id: string) => `${id}_help`;
/** The id of a field's standing hint (what the field expects), for the control's `aria-describedby`. */
export const hintId = (id: string) => `${id}_extra`;

/**
 * One field of a form that keeps its own messages instead of antd's Form (pages/login/login.form.tsx):
 * the label, the control, and the line under it where the field's message appears. The line keeps its
 * height with or without a message (antd's 24 px between fields), so a message appearing moves nothing
 * (no layout shift, nothing measured), and it appears at once, with no motion to render.
 * `ant-form-item-explain-error` is antd's name for a field's message, kept for the tests that read it.
 */
export function PlainField({
  id,
  label,
  hint,
  message,
  children,
}: {
  /** The control's id. */
  id: string;
  label: string;
  /** What the field expects, said under it before anything is typed (antd's `extra`). */
  hint?: string;
  message: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="plain-field">
      <label className="plain-field-label" htmlFor={id}>
        {label}
      </label>
      <div className="plain-field-control">{children}</div>
      {hint ? (
        <div className="plain-field-hint" id={hintId(id)}>
          {hint}
        </div>
      ) : null}
      <FieldMessage id={id} message={message} />
    </div>
  );
}

/**
 * The line under a field where its message appears (`messageId(id)`), kept at its height with or
 * without one. `ant-form-item-explain-error` is antd's name for a field's message, kept for the tests.
 */
export function FieldMessage({ id, message }: { id: string; message: string | undefined }) {
  return (
    <div className="plain-field-message" id={messageId(id)}>
      {message ? (
        <div className="plain-field-error ant-form-item-explain-error" role="alert">
          {message}
        </div>
      ) : null}
    </div>
  );
}
