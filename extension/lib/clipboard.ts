import type { ScriptRunner } from './selection';

/**
 * Injected into the page: writes text to the clipboard, with the old `execCommand('copy')`
 * when the async clipboard is refused (the page does not have focus). Must stay self-contained.
 */
export async function copyInPage(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.documentElement.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/** Copies from an extension page (popup, Firefox background page). */
export function copyHere(text: string): Promise<boolean> {
  return copyInPage(text);
}

/**
 * Copies from Chromium's service worker, which has no DOM and no clipboard: the text is
 * written by a function injected into the tab the user acted on (`activeTab` + `scripting`;
 * no `offscreen` permission needed). False when that tab cannot be scripted.
 */
export async function copyViaTab(scripting: ScriptRunner, tabId: number, text: string): Promise<boolean> {
  try {
    const [first] = await scripting.executeScript({ target: { tabId }, func: copyInPage, args: [text] });
    return first?.result === true;
  } catch {
    return false;
  }
}
