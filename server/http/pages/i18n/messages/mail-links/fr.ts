import type { Message } from '../../translator.js';
import type { mailLinksEn } from './en.js';

/** The pages' "e-mail the link" messages (fr). */
export const mailLinksFr: Record<keyof typeof mailLinksEn, Message> = {
  "mailLink.create.legend": "Envoyer le lien par e-mail (facultatif)",
  "mailLink.recipients": "Adresses e-mail des destinataires",
  "mailLink.recipientsHint": "Jusqu’à {max} adresses, séparées par des virgules. Chacune reçoit de ce serveur son propre e-mail contenant le lien, avec votre adresse pour répondre.",
  "mailLink.note": "Message personnel dans l’e-mail",
  "mailLink.endToEndNote": "Un texte ou un fichier est chiffré dans ce navigateur : la clé de son lien n’est jamais envoyée au serveur, sauf dans ces e-mails, que cette page demande au serveur d’envoyer une fois le push créé. Les serveurs de messagerie des destinataires peuvent lire le lien entier.",
  "mailLink.endToEndResultNote": "Les e-mails contiennent le lien entier avec sa clé, que cette page envoie au serveur pour eux seulement : les serveurs de messagerie des destinataires peuvent le lire.",
  "mailLink.heading": "Envoyer le lien par e-mail…",
  "mailLink.send": "Envoyer l’e-mail",
  "mailLink.sending": "Envoi…",
  "mailLink.sent": {"one": "Le lien part vers {count} adresse : {addresses}.", "other": "Le lien part vers {count} adresses : {addresses}."},
  "mailLink.keyMissing": "La clé de ce lien n’est que dans la page de ce navigateur qui l’a créé : envoyez-le depuis celle-ci.",
  "mailLink.failed": "L’e-mail n’a pas pu être envoyé depuis cette page : {problem}",
  "mailLink.expired": "Non envoyé : ce push a expiré ou a été supprimé, son lien ne donne plus rien.",
  "field.notify_emails": "Destinataires",
  "field.notify_note": "Message personnel",
  "field.link_key": "La clé du lien",
  "field.url_token": "Push",
  "service.notEmailAddress": "{address} n’est pas une adresse e-mail",
  "service.atMostAddresses": "{max} adresses au plus",
  "service.emailList": "doit être une liste d’adresses e-mail",
  "service.atLeastOneAddress": "au moins une adresse e-mail est nécessaire",
  "service.anonymousMail": "nécessite un compte : un push anonyme ne peut pas être envoyé par e-mail",
  "service.mailNotSetUp": "l’e-mail n’est pas configuré sur ce serveur",
  "service.endToEndMail": "impossible pour un push de bout en bout : le serveur n’a pas sa clé",
  "service.pushExpired": "ce push a expiré",
  "service.linkKeyNeeded": "un push de bout en bout a besoin de la clé de son lien",
  "service.sentence.tooManyLinkMails": "Trop de liens secrets ont été envoyés par e-mail (au plus {perAccount} destinataires par compte et {perAddress} liens par adresse et par jour). Veuillez réessayer plus tard.",
};
