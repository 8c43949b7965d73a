import type { ssoEn } from './en.js';

/** Single sign-on's refusals in Brazilian Portuguese. */
export const ssoPtBR: Record<keyof typeof ssoEn, string> = {
  'service.sentence.ssoUnreachable': 'Não é possível contatar o provedor de login ({name}). Tente novamente mais tarde.',
  'service.sentence.ssoFlowLost': 'Este login não foi iniciado neste navegador ou demorou demais. Comece de novo.',
  'service.sentence.ssoCancelled': 'O login foi cancelado no provedor.',
  'service.sentence.ssoProviderRefused': 'O provedor não fez o seu login. Comece de novo.',
  'service.sentence.ssoUnverifiable': 'Não foi possível verificar a resposta do provedor de login. Comece de novo.',
  'service.sentence.passwordsOff': 'O login com senha está desativado neste servidor: use o login único (SSO).',
  'service.sentence.ssoNoEmail': 'O provedor de login não informou o seu endereço de e-mail (peça o scope "email").',
  'service.sentence.ssoEmailUnverified': 'O provedor de login não verificou o seu endereço de e-mail, por isso ele não pode ser usado para entrar aqui.',
  'service.sentence.ssoOtherPerson': 'Este endereço de e-mail pertence à conta de outra pessoa no provedor de login. Fale com um administrador.',
  'service.sentence.ssoSignUpClosed': 'Não há conta para o seu endereço de e-mail aqui, e novas contas não estão sendo criadas.',
  'service.sentence.ssoInviteNeeded': 'Não há conta para o seu endereço de e-mail aqui: novas contas precisam de um link de convite válido.',
  'service.sentence.ssoAccountDeleted': 'Esta conta foi excluída. Tente novamente.',
  'service.sentence.emailDomainsOnly': 'As contas deste servidor são apenas para endereços em {domains}.',
};
