import type { ssoEn } from './en.js';

/** Single sign-on's refusals in German. */
export const ssoDe: Record<keyof typeof ssoEn, string> = {
  'service.sentence.ssoUnreachable': 'Der Anmeldedienst ({name}) ist nicht erreichbar. Bitte versuchen Sie es später erneut.',
  'service.sentence.ssoFlowLost': 'Diese Anmeldung wurde nicht in diesem Browser begonnen oder hat zu lange gedauert. Bitte beginnen Sie von vorn.',
  'service.sentence.ssoCancelled': 'Die Anmeldung wurde beim Anmeldedienst abgebrochen.',
  'service.sentence.ssoProviderRefused': 'Der Anmeldedienst hat Sie nicht angemeldet. Bitte beginnen Sie von vorn.',
  'service.sentence.ssoUnverifiable': 'Die Antwort des Anmeldedienstes konnte nicht geprüft werden. Bitte beginnen Sie von vorn.',
  'service.sentence.passwordsOff': 'Die Anmeldung mit Passwort ist auf diesem Server abgeschaltet: Melden Sie sich per Single Sign-on an.',
  'service.sentence.ssoNoEmail': 'Der Anmeldedienst hat Ihre E-Mail-Adresse nicht mitgeteilt (der Scope „email“ muss erfragt werden).',
  'service.sentence.ssoEmailUnverified': 'Der Anmeldedienst hat Ihre E-Mail-Adresse nicht bestätigt, daher kann sie hier nicht zur Anmeldung dienen.',
  'service.sentence.ssoOtherPerson': 'Diese E-Mail-Adresse gehört beim Anmeldedienst zum Konto einer anderen Person. Wenden Sie sich an einen Administrator.',
  'service.sentence.ssoSignUpClosed': 'Für Ihre E-Mail-Adresse gibt es hier kein Konto, und neue Konten werden nicht angelegt.',
  'service.sentence.ssoInviteNeeded': 'Für Ihre E-Mail-Adresse gibt es hier kein Konto: Neue Konten brauchen einen gültigen Einladungslink.',
  'service.sentence.ssoAccountDeleted': 'Dieses Konto wurde gelöscht. Bitte versuchen Sie es erneut.',
  'service.sentence.emailDomainsOnly': 'Konten auf diesem Server gibt es nur für Adressen unter {domains}.',
};
