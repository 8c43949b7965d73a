import { createPopupEnv, type PopupEnv } from './popup-env';
import { saveSettings } from './settings-save';
import type { Settings } from './settings-storage';

/** The options page's world: the popup's, and writing the settings, which only Settings does. */
export interface OptionsEnv extends PopupEnv {
  saveSettings(settings: Settings): Promise<void>;
}

export const createOptionsEnv = (): OptionsEnv => ({ ...createPopupEnv(), saveSettings });
