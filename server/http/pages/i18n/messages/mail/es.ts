import type { mailEn } from './en.js';

/** The e-mail pages' messages (es). */
export const mailEs: Record<keyof typeof mailEn, string> = {
  "title.mails": "Correos abandonados",
  "account.tokens.mails": "Correos abandonados",
  "mails.heading": "Correos abandonados",
  "mails.intro": "Correos sobre su cuenta o enviados por usted que no se pudieron entregar: el servidor de correo de destino los rechazó o ninguno respondió durante todo el periodo de reintentos. Su contenido no se muestra.",
  "mails.none": "No se ha abandonado ningún correo.",
  "mails.when": "Cuándo",
  "mails.to": "Para",
  "mails.kind": "Qué",
  "mails.reply": "Respuesta del servidor de correo",
  "mails.back": "Volver a su cuenta",
  "mails.kind.password-reset": "Enlace para restablecer la contraseña",
  "mails.kind.password-reset-no-account": "Restablecimiento (sin cuenta)",
  "mails.kind.password-changed": "Aviso de cambio de contraseña",
  "mails.kind.confirm-email": "Confirmación de la dirección",
  "mails.kind.sign-up-existing": "Registro con su dirección",
  "mails.kind.receipt-opened": "Aviso: abierto",
  "mails.kind.receipt-expired-unopened": "Aviso: caducado sin abrir",
  "mails.kind.push-link": "Enlace enviado a un destinatario",
};
