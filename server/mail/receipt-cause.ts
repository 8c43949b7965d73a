import type { Language, MailCause } from './mail-texts.js';

/**
 * Why a receipt was sent, as decided when its push or request was made: the sender asked for it
 * on that push or request, or left it out and the account's e-mail setting asked (then the mail
 * links to that setting). Records made before the cause was recorded say nothing of the account,
 * so they read as asked for, which is what those receipts always said.
 */
const ASKED_PUSH: Record<Language, string> = {
  en: 'You asked for this e-mail when you made the push.',
  de: 'Sie haben diese E-Mail beim Erstellen des Pushs angefordert.',
  fr: 'Vous avez demandé cet e-mail en créant le push.',
  es: 'Pidió este correo al crear el push.',
  'pt-BR': 'Você pediu este e-mail ao criar o push.',
  ja: 'このメールはプッシュ作成時のご指定により送信しています。',
  'zh-CN': '这封邮件是您在创建推送时要求的。',
};

const ACCOUNT_PUSH: Record<Language, string> = {
  en: 'Your account’s e-mail settings ask for this e-mail for pushes that do not say otherwise; this push did not say. Your settings: {settings}',
  de: 'Die E-Mail-Einstellungen Ihres Kontos fordern diese E-Mail für Pushs an, die nichts anderes angeben; dieser Push hat nichts angegeben. Ihre Einstellungen: {settings}',
  fr: 'Les réglages e-mail de votre compte demandent cet e-mail pour les pushs qui n’indiquent rien d’autre ; ce push n’indiquait rien. Vos réglages : {settings}',
  es: 'La configuración de correo de su cuenta pide este correo para los pushes que no indican otra cosa; este push no lo indicó. Su configuración: {settings}',
  'pt-BR': 'As configurações de e-mail da sua conta pedem este e-mail para pushes que não dizem o contrário; este push não disse. Suas configurações: {settings}',
  ja: 'このメールは、指定のないプッシュに対するアカウントのメール設定により送信しています (このプッシュには指定がありませんでした)。設定: {settings}',
  'zh-CN': '您账户的邮件设置为未另行指定的推送要求此邮件；此推送未指定。您的设置：{settings}',
};

const ASKED_REQUEST: Record<Language, string> = {
  en: 'You asked for this e-mail when you made the request.',
  de: 'Sie haben diese E-Mail beim Erstellen der Anfrage angefordert.',
  fr: 'Vous avez demandé cet e-mail en créant la demande.',
  es: 'Pidió este correo al crear la solicitud.',
  'pt-BR': 'Você pediu este e-mail ao criar a solicitação.',
  ja: 'このメールはリクエスト作成時のご指定により送信しています。',
  'zh-CN': '这封邮件是您在创建请求时要求的。',
};

const ACCOUNT_REQUEST: Record<Language, string> = {
  en: 'Your account’s e-mail settings ask for this e-mail for requests that do not say otherwise; this request did not say. Your settings: {settings}',
  de: 'Die E-Mail-Einstellungen Ihres Kontos fordern diese E-Mail für Anfragen an, die nichts anderes angeben; diese Anfrage hat nichts angegeben. Ihre Einstellungen: {settings}',
  fr: 'Les réglages e-mail de votre compte demandent cet e-mail pour les demandes qui n’indiquent rien d’autre ; cette demande n’indiquait rien. Vos réglages : {settings}',
  es: 'La configuración de correo de su cuenta pide este correo para las solicitudes que no indican otra cosa; esta solicitud no lo indicó. Su configuración: {settings}',
  'pt-BR': 'As configurações de e-mail da sua conta pedem este e-mail para solicitações que não dizem o contrário; esta solicitação não disse. Suas configurações: {settings}',
  ja: 'このメールは、指定のないリクエストに対するアカウントのメール設定により送信しています (このリクエストには指定がありませんでした)。設定: {settings}',
  'zh-CN': '您账户的邮件设置为未另行指定的请求要求此邮件；此请求未指定。您的设置：{settings}',
};

/** The cause paragraph of a receipt about a push (`push`) or a request (`request`). */
export function receiptCause(about: 'push' | 'request', byDefault: boolean, origin: string): MailCause {
  if (!byDefault) return { text: about === 'push' ? ASKED_PUSH : ASKED_REQUEST };
  return { text: about === 'push' ? ACCOUNT_PUSH : ACCOUNT_REQUEST, settingsUrl: `${origin}/users/mail-settings` };
}
