import type { mailEn } from './en.js';

/** The e-mail pages' messages (pt-BR). */
export const mailPtBR: Record<keyof typeof mailEn, string> = {
  "title.mails": "E-mails abandonados",
  "account.tokens.mails": "E-mails abandonados",
  "mails.heading": "E-mails abandonados",
  "mails.intro": "E-mails sobre sua conta ou enviados por você que não puderam ser entregues: o servidor de e-mail de destino os recusou, ou nenhum respondeu durante todo o período de novas tentativas. O conteúdo não é mostrado.",
  "mails.none": "Nenhum e-mail foi abandonado.",
  "mails.when": "Quando",
  "mails.to": "Para",
  "mails.kind": "O quê",
  "mails.reply": "Resposta do servidor de e-mail",
  "mails.back": "Voltar para sua conta",
  "mails.kind.password-reset": "Link de redefinição de senha",
  "mails.kind.password-reset-no-account": "Redefinição de senha (sem conta)",
  "mails.kind.password-changed": "Aviso de senha alterada",
  "mails.kind.confirm-email": "Confirmação do endereço",
  "mails.kind.sign-up-existing": "Cadastro com seu endereço",
  "mails.kind.receipt-opened": "Aviso: aberto",
  "mails.kind.receipt-expired-unopened": "Aviso: expirou sem ser aberto",
  "mails.kind.push-link": "Link enviado a um destinatário",
};
