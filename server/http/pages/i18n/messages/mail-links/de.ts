import type { Message } from '../../translator.js';
import type { mailLinksEn } from './en.js';

/** The pages' "e-mail the link" messages (de). */
export const mailLinksDe: Record<keyof typeof mailLinksEn, Message> = {
  "mailLink.create.legend": "Den Link per E-Mail senden (freiwillig)",
  "mailLink.recipients": "E-Mail-Adressen der Empfänger",
  "mailLink.recipientsHint": "Bis zu {max} Adressen, durch Kommas getrennt. Jede erhält von diesem Server eine eigene E-Mail mit dem Link, mit Ihrer Adresse für Antworten.",
  "mailLink.note": "Persönliche Nachricht in der E-Mail",
  "mailLink.endToEndNote": "Ein Text oder eine Datei wird in diesem Browser verschlüsselt: Der Schlüssel des Links geht nie an den Server, außer in diesen E-Mails, die diese Seite den Server senden lässt, sobald der Push erstellt ist. Die Mailserver der Empfänger können den ganzen Link lesen.",
  "mailLink.endToEndResultNote": "Die E-Mails enthalten den ganzen Link mit seinem Schlüssel, den diese Seite nur dafür an den Server sendet: Die Mailserver der Empfänger können ihn lesen.",
  "mailLink.heading": "Den Link per E-Mail senden…",
  "mailLink.send": "E-Mail senden",
  "mailLink.sending": "Wird gesendet…",
  "mailLink.sent": {"one": "Der Link ist unterwegs an {count} Adresse: {addresses}.", "other": "Der Link ist unterwegs an {count} Adressen: {addresses}."},
  "mailLink.keyMissing": "Der Schlüssel dieses Links ist nur in der Seite dieses Browsers, die ihn erstellt hat: Senden Sie ihn von dort.",
  "mailLink.failed": "Die E-Mail konnte von dieser Seite nicht gesendet werden: {problem}",
  "mailLink.expired": "Nicht gesendet: Dieser Push ist abgelaufen oder wurde gelöscht; sein Link gibt nichts mehr preis.",
  "field.notify_emails": "Empfänger",
  "field.notify_note": "Persönliche Nachricht",
  "field.link_key": "Schlüssel des Links",
  "field.url_token": "Push",
  "service.notEmailAddress": "{address} ist keine E-Mail-Adresse",
  "service.atMostAddresses": "höchstens {max} Adressen",
  "service.emailList": "muss eine Liste von E-Mail-Adressen sein",
  "service.atLeastOneAddress": "mindestens eine E-Mail-Adresse ist nötig",
  "service.anonymousMail": "braucht ein Konto: anonyme Pushes können nicht per E-Mail gesendet werden",
  "service.mailNotSetUp": "E-Mail ist auf diesem Server nicht eingerichtet",
  "service.endToEndMail": "geht nicht bei einem Ende-zu-Ende-Push: Der Server hat seinen Schlüssel nicht",
  "service.pushExpired": "dieser Push ist abgelaufen",
  "service.linkKeyNeeded": "ein Ende-zu-Ende-Push braucht den Schlüssel seines Links",
  "service.sentence.tooManyLinkMails": "Zu viele geheime Links wurden per E-Mail gesendet (höchstens {perAccount} Empfänger pro Konto und {perAddress} Links pro Adresse am Tag). Bitte versuchen Sie es später erneut.",
};
