import type { Message } from '../../translator.js';
import type { mailLinksEn } from './en.js';

/** The pages' "e-mail the link" messages (pt-BR). */
export const mailLinksPtBR: Record<keyof typeof mailLinksEn, Message> = {
  "mailLink.create.legend": "Enviar o link por e-mail (opcional)",
  "mailLink.recipients": "Endereços de e-mail dos destinatários",
  "mailLink.recipientsHint": "Até {max} endereços, separados por vírgulas. Cada um recebe deste servidor seu próprio e-mail com o link, com o seu endereço para resposta.",
  "mailLink.note": "Nota pessoal no e-mail",
  "mailLink.endToEndNote": "Um texto ou arquivo é criptografado neste navegador: a chave do link nunca é enviada ao servidor, exceto nestes e-mails, que esta página pede ao servidor para enviar depois que o push é criado. Os servidores de e-mail dos destinatários podem ler o link inteiro.",
  "mailLink.endToEndResultNote": "Os e-mails contêm o link inteiro com a chave, que esta página envia ao servidor apenas para eles: os servidores de e-mail dos destinatários podem lê-lo.",
  "mailLink.heading": "Enviar o link por e-mail…",
  "mailLink.send": "Enviar o e-mail",
  "mailLink.sending": "Enviando…",
  "mailLink.sent": {"one": "O link está a caminho de {count} endereço: {addresses}.", "other": "O link está a caminho de {count} endereços: {addresses}."},
  "mailLink.keyMissing": "A chave deste link está apenas na página deste navegador que o criou: envie-o de lá.",
  "mailLink.failed": "Não foi possível enviar o e-mail desta página: {problem}",
  "mailLink.expired": "Não enviado: este push expirou ou foi excluído, então o link não entrega mais nada.",
  "field.notify_emails": "Destinatários",
  "field.notify_note": "Nota pessoal",
  "field.link_key": "A chave do link",
  "field.url_token": "Push",
  "service.notEmailAddress": "{address} não é um endereço de e-mail",
  "service.atMostAddresses": "no máximo {max} endereços",
  "service.emailList": "deve ser uma lista de endereços de e-mail",
  "service.atLeastOneAddress": "é preciso pelo menos um endereço de e-mail",
  "service.anonymousMail": "precisa de uma conta: pushes anônimos não podem ser enviados por e-mail",
  "service.mailNotSetUp": "o e-mail não está configurado neste servidor",
  "service.endToEndMail": "não pode ser usado com um push de ponta a ponta: o servidor não tem a chave dele",
  "service.pushExpired": "este push expirou",
  "service.linkKeyNeeded": "um push de ponta a ponta precisa da chave do seu link",
  "service.sentence.tooManyLinkMails": "Links secretos demais foram enviados por e-mail (no máximo {perAccount} destinatários por conta e {perAddress} links por endereço por dia). Tente novamente mais tarde.",
};
