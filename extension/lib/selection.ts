/** Runs a function in a tab (the `scripting.executeScript` of WebExtensions, narrowed). */
export interface ScriptRunner {
  executeScript(injection: {
    target: { tabId: number; frameIds?: number[] };
    func: (...args: never[]) => unknown;
    args?: unknown[];
  }): Promise<Array<{ result?: unknown }>>;
}

/**
 * Injected into the page: the selected text, including a selection inside a text field
 * (which `getSelection()` does not report in every browser). Must stay self-contained.
 */
export function selectionInPage(): string {
  const active = document.activeElement;
  if (active instanceof HTMLTextAreaElement || (active instanceof HTMLInputElement && /^(text|search|url|tel|email)$/.test(active.type))) {
    const { selectionStart: start, selectionEnd: end } = active;
    if (start !== null && end !== null && end > start) return active.value.slice(start, end);
  }
  return window.getSelection()?.toString() ?? '';
}

/**
 * The text selected in a tab (in one frame when `frameId` is known, as the context menu tells),
 * or '' when there is none or the page cannot be read (browser pages, the web store, no
 * permission). Needs `activeTab` (granted by opening the popup or using the menu) and `scripting`.
 */
export async function readSelection(scripting: ScriptRunner, tabId: number, frameId?: number): Promise<string> {
  try {
    const results = await scripting.executeScript({
      target: frameId ? { tabId, frameIds: [frameId] } : { tabId },
      func: selectionInPage,
    });
    for (const r of results) if (typeof r.result === 'string' && r.result.trim() !== '') return r.result;
    return '';
  } catch {
    return '';
  }
}
