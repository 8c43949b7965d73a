/** The part of `notifications` used to tell the user what a background action did. */
export interface Notifier {
  create(options: { type: 'basic'; iconUrl: string; title: string; message: string }): Promise<string> | unknown;
}

/** Shows a basic notification; never throws (a notification is not worth failing a push over). */
export async function notify(notifications: Notifier, iconUrl: string, title: string, message: string): Promise<void> {
  try {
    await notifications.create({ type: 'basic', iconUrl, title, message });
  } catch {
    // Notifications may be switched off by the user or the system.
  }
}
