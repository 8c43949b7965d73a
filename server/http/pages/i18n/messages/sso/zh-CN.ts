import type { ssoEn } from './en.js';

/** Single sign-on's refusals in Simplified Chinese. */
export const ssoZhCN: Record<keyof typeof ssoEn, string> = {
  'service.sentence.ssoUnreachable': '无法连接登录服务提供方（{name}）。请稍后再试。',
  'service.sentence.ssoFlowLost': '此次登录不是在此浏览器中开始的，或耗时过长。请重新开始。',
  'service.sentence.ssoCancelled': '登录已在服务提供方处取消。',
  'service.sentence.ssoProviderRefused': '服务提供方未让您登录。请重新开始。',
  'service.sentence.ssoUnverifiable': '无法验证登录服务提供方的应答。请重新开始。',
  'service.sentence.passwordsOff': '此服务器已关闭密码登录：请使用单点登录。',
  'service.sentence.ssoNoEmail': '登录服务提供方没有提供您的电子邮件地址（请申请 email 范围）。',
  'service.sentence.ssoEmailUnverified': '登录服务提供方尚未验证您的电子邮件地址，因此不能用它在此登录。',
  'service.sentence.ssoOtherPerson': '在登录服务提供方处，此电子邮件地址属于另一个人的帐户。请联系管理员。',
  'service.sentence.ssoSignUpClosed': '此处没有您电子邮件地址的帐户，且目前不创建新帐户。',
  'service.sentence.ssoInviteNeeded': '此处没有您电子邮件地址的帐户：创建新帐户需要有效的邀请链接。',
  'service.sentence.ssoAccountDeleted': '此帐户已被删除。请重试。',
  'service.sentence.emailDomainsOnly': '此服务器的帐户仅供 {domains} 的地址使用。',
};
