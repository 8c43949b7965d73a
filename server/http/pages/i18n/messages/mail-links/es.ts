import type { Message } from '../../translator.js';
import type { mailLinksEn } from './en.js';

/** The pages' "e-mail the link" messages (es). */
export const mailLinksEs: Record<keyof typeof mailLinksEn, Message> = {
  "mailLink.create.legend": "Enviar el enlace por correo (opcional)",
  "mailLink.recipients": "Direcciones de correo de los destinatarios",
  "mailLink.recipientsHint": "Hasta {max} direcciones, separadas por comas. Cada una recibe de este servidor su propio correo con el enlace, con su dirección para responder.",
  "mailLink.note": "Nota personal en el correo",
  "mailLink.endToEndNote": "Un texto o archivo se cifra en este navegador: la clave de su enlace nunca se envía al servidor, salvo en estos correos, que esta página pide al servidor enviar una vez creado el push. Los servidores de correo de los destinatarios pueden leer el enlace completo.",
  "mailLink.endToEndResultNote": "Los correos llevan el enlace completo con su clave, que esta página envía al servidor solo para ellos: los servidores de correo de los destinatarios pueden leerlo.",
  "mailLink.heading": "Enviar el enlace por correo…",
  "mailLink.send": "Enviar el correo",
  "mailLink.sending": "Enviando…",
  "mailLink.sent": {"one": "El enlace va en camino a {count} dirección: {addresses}.", "other": "El enlace va en camino a {count} direcciones: {addresses}."},
  "mailLink.keyMissing": "La clave de este enlace solo está en la página de este navegador que lo creó: envíelo desde allí.",
  "mailLink.failed": "No se pudo enviar el correo desde esta página: {problem}",
  "mailLink.expired": "No enviado: este push caducó o se eliminó, así que su enlace ya no da nada.",
  "field.notify_emails": "Destinatarios",
  "field.notify_note": "Nota personal",
  "field.link_key": "La clave del enlace",
  "field.url_token": "Push",
  "service.notEmailAddress": "{address} no es una dirección de correo",
  "service.atMostAddresses": "como máximo {max} direcciones",
  "service.emailList": "debe ser una lista de direcciones de correo",
  "service.atLeastOneAddress": "se necesita al menos una dirección de correo",
  "service.anonymousMail": "necesita una cuenta: los pushes anónimos no se pueden enviar por correo",
  "service.mailNotSetUp": "el correo no está configurado en este servidor",
  "service.endToEndMail": "no se puede usar con un push de extremo a extremo: el servidor no tiene su clave",
  "service.pushExpired": "este push ha caducado",
  "service.linkKeyNeeded": "un push de extremo a extremo necesita la clave de su enlace",
  "service.sentence.tooManyLinkMails": "Se enviaron demasiados enlaces secretos por correo (como máximo {perAccount} destinatarios por cuenta y {perAddress} enlaces por dirección al día). Inténtelo de nuevo más tarde.",
};
