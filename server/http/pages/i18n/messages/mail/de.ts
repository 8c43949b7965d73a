import type { mailEn } from './en.js';

/** The e-mail pages' messages (de). */
export const mailDe: Record<keyof typeof mailEn, string> = {
  "title.mails": "Aufgegebene E-Mails",
  "account.tokens.mails": "Aufgegebene E-Mails",
  "mails.heading": "Aufgegebene E-Mails",
  "mails.intro": "E-Mails zu Ihrem Konto oder von Ihnen versandte, die nicht zugestellt werden konnten: Der empfangende Mailserver hat sie abgelehnt, oder keiner hat während der ganzen Wiederholungszeit geantwortet. Ihr Inhalt wird nicht angezeigt.",
  "mails.none": "Keine E-Mail wurde aufgegeben.",
  "mails.when": "Wann",
  "mails.to": "An",
  "mails.kind": "Was",
  "mails.reply": "Antwort des Mailservers",
  "mails.back": "Zurück zu Ihrem Konto",
  "mails.kind.password-reset": "Link zum Zurücksetzen des Passworts",
  "mails.kind.password-reset-no-account": "Passwort zurücksetzen (kein Konto)",
  "mails.kind.password-changed": "Hinweis: Passwort geändert",
  "mails.kind.confirm-email": "Adressbestätigung",
  "mails.kind.sign-up-existing": "Registrierung mit Ihrer Adresse",
  "mails.kind.receipt-opened": "Benachrichtigung: geöffnet",
  "mails.kind.receipt-expired-unopened": "Benachrichtigung: ungeöffnet abgelaufen",
  "mails.kind.push-link": "Link an einen Empfänger",
};
