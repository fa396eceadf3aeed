import type { FormRule } from 'antd';

/** The part of a zod schema this helper needs; keeps the web app off a direct zod dependency. */
export interface SafeParser {
  safeParse(value: unknown):
    | { success: true }
    | {
        success: false;
        error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
      };
}

/**
 * The message the shared schema gives for one field, validating the whole form so cross-field rules
 * (password confirmation) come from the schema too. Issues of other fields are ignored.
 */
export function fieldIssue(schema: SafeParser, values: unknown, field: string): string | undefined {
  const result = schema.safeParse(values);
  if (result.success) return undefined;
  return result.error.issues.find((issue) => issue.path[0] === field)?.message;
}

/**
 * Each field's first message among a validation's issues, for a form that validates once, on submit
 * (pages/login/login.form.tsx). Fields without an issue are absent; issues of other fields are ignored.
 */
export function firstIssues<F extends string>(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  fields: readonly F[],
): Partial<Record<F, string>> {
  const found: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = fields.find((f) => f === issue.path[0]);
    if (field && found[field] === undefined) found[field] = issue.message;
  }
  return found;
}

/**
 * An antd rule from a shared zod schema: `rules={[zodRule(SignupForm, 'user_name')]}`. The messages are
 * the catalogue's, verbatim, because they come from the same schema the API validates with.
 */
export const zodRule =
  (schema: SafeParser, field: string): FormRule =>
  (form) => ({
    validator: async () => {
      const message = fieldIssue(schema, form.getFieldsValue(), field);
      if (message) throw new Error(message);
    },
  });
