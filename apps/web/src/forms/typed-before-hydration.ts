import type { FormInstance } from 'antd';
import { useEffect, useLayoutEffect, useState, type Dispatch, type SetStateAction } from 'react';

/**
 * What a visitor typed or ticked in a server-rendered form before the app hydrated it. React keeps
 * such values in the page (it does not reset an input it hydrates) but the form's own store never saw
 * them, so the form would submit empty fields that show text. Read once, when the form is mounted
 * (hydration has just committed), from antd's input ids (`{formName}_{field}`): the state of the page,
 * not a replay of events. React's own answer (replaying change events after hydration) is still behind
 * a flag (`enableHydrationChangeEvent`).
 */
function typedBeforeHydration(formName: string, fields: readonly string[]): Record<string, unknown> {
  const typed: Record<string, unknown> = {};
  for (const field of fields) {
    const input = document.getElementById(`${formName}_${field}`);
    if (!(input instanceof HTMLInputElement)) continue;
    if (input.type === 'checkbox') {
      if (input.checked) typed[field] = true;
    } else if (input.value !== '') {
      typed[field] = input.value;
    }
  }
  return typed;
}

/** Takes what was typed before hydration into `form` once, on mount. */
export function useTypedBeforeHydration(
  form: FormInstance,
  formName: string,
  fields: readonly string[],
): void {
  useEffect(() => {
    const typed = typedBeforeHydration(formName, fields);
    if (Object.keys(typed).length > 0) form.setFieldsValue(typed);
    // Once, on mount: later typing reaches the form through its own change events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * The state of one input of a server-rendered form that keeps its own values (antd's inputs are
 * controlled: an empty state would clear what the page shows on their next render), starting from what
 * the input held when it was mounted: what was typed or ticked before hydration, else `empty`. Read in
 * the hydration's commit, before any event reaches the input.
 */
export function useTypedInput<T extends string | boolean>(
  id: string,
  empty: T,
): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(empty);
  useLayoutEffect(() => {
    const input = document.getElementById(id);
    if (!(input instanceof HTMLInputElement)) return;
    const typed = input.type === 'checkbox' ? input.checked : input.value;
    if (typeof typed === typeof empty && typed !== empty) setValue(typed as T);
    // Once, on mount: later typing reaches the state through the input's own change events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return [value, setValue];
}
