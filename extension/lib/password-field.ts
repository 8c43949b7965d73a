import type { ScriptRunner } from './selection';

/**
 * Injected into the frame the user right-clicked: with no `value`, whether the focused element
 * (a right-click focuses the field under it) is a password field; with one, puts it there as
 * typing would. Must stay self-contained.
 */
export function passwordFieldInPage(value?: string): boolean {
  const field = document.activeElement;
  if (!(field instanceof HTMLInputElement) || field.type !== 'password' || field.disabled || field.readOnly) return false;
  if (value === undefined) return true;
  // The prototype's setter: frameworks (React) watch the element's own and would miss a plain assignment.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
  return true;
}

/**
 * Checks (no `value`) or fills the password field focused in one frame of a tab; false when it
 * is not one or the frame cannot be scripted. Needs `activeTab` (granted by the menu click).
 */
export async function passwordField(scripting: ScriptRunner, tabId: number, frameId: number | undefined, value?: string): Promise<boolean> {
  try {
    const [first] = await scripting.executeScript({
      target: { tabId, frameIds: [frameId ?? 0] },
      func: passwordFieldInPage,
      args: value === undefined ? [] : [value],
    });
    return first?.result === true;
  } catch {
    return false;
  }
}
