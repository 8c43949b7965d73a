import type { mailEn } from './en.js';

/** The e-mail pages' messages (fr). */
export const mailFr: Record<keyof typeof mailEn, string> = {
  "title.mails": "E-mails abandonnés",
  "account.tokens.mails": "E-mails abandonnés",
  "mails.heading": "E-mails abandonnés",
  "mails.intro": "Les e-mails concernant votre compte ou envoyés par vous qui n’ont pas pu être remis : le serveur de messagerie destinataire les a refusés, ou aucun n’a répondu pendant toute la période de nouvelles tentatives. Leur contenu n’est pas affiché.",
  "mails.none": "Aucun e-mail n’a été abandonné.",
  "mails.when": "Quand",
  "mails.to": "À",
  "mails.kind": "Quoi",
  "mails.reply": "Réponse du serveur de messagerie",
  "mails.back": "Retour à votre compte",
  "mails.kind.password-reset": "Lien de réinitialisation du mot de passe",
  "mails.kind.password-reset-no-account": "Réinitialisation (aucun compte)",
  "mails.kind.password-changed": "Avis de changement de mot de passe",
  "mails.kind.confirm-email": "Confirmation de l’adresse",
  "mails.kind.sign-up-existing": "Inscription avec votre adresse",
  "mails.kind.receipt-opened": "Avis : ouvert",
  "mails.kind.receipt-expired-unopened": "Avis : expiré sans être ouvert",
  "mails.kind.push-link": "Lien envoyé à un destinataire",
};
