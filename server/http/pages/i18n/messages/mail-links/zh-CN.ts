import type { Message } from '../../translator.js';
import type { mailLinksEn } from './en.js';

/** The pages' "e-mail the link" messages (zh-CN). */
export const mailLinksZhCN: Record<keyof typeof mailLinksEn, Message> = {
  "mailLink.create.legend": "通过电子邮件发送链接（可选）",
  "mailLink.recipients": "收件人的电子邮件地址",
  "mailLink.recipientsHint": "最多 {max} 个地址，用逗号分隔。每个地址会从本服务器收到一封包含链接的邮件，回复地址为您的地址。",
  "mailLink.note": "邮件中的个人留言",
  "mailLink.endToEndNote": "文本或文件在此浏览器中加密：链接的密钥从不发送到服务器，只有这些邮件例外——推送创建后，此页面请服务器发送它们。收件人的邮件服务器可以读取完整链接。",
  "mailLink.endToEndResultNote": "邮件包含带密钥的完整链接，此页面仅为这些邮件把密钥发送给服务器：收件人的邮件服务器可以读取它。",
  "mailLink.heading": "通过电子邮件发送链接…",
  "mailLink.send": "发送邮件",
  "mailLink.sending": "正在发送…",
  "mailLink.sent": {"other": "链接正在发往 {count} 个地址：{addresses}。"},
  "mailLink.keyMissing": "此链接的密钥只在创建它的此浏览器页面中：请从那里发送。",
  "mailLink.failed": "无法从此页面发送邮件：{problem}",
  "mailLink.expired": "未发送：此推送已过期或已被删除，其链接已不再提供任何内容。",
  "field.notify_emails": "收件人",
  "field.notify_note": "个人留言",
  "field.link_key": "链接的密钥",
  "field.url_token": "推送",
  "service.notEmailAddress": "{address} 不是电子邮件地址",
  "service.atMostAddresses": "最多 {max} 个地址",
  "service.emailList": "必须是电子邮件地址列表",
  "service.atLeastOneAddress": "至少需要一个电子邮件地址",
  "service.anonymousMail": "需要账户：匿名推送不能通过电子邮件发送",
  "service.mailNotSetUp": "：此服务器未设置电子邮件",
  "service.endToEndMail": "不能用于端到端推送：服务器没有它的密钥",
  "service.pushExpired": "：此推送已过期",
  "service.linkKeyNeeded": "：端到端推送需要其链接的密钥",
  "service.sentence.tooManyLinkMails": "通过电子邮件发送的秘密链接过多（每个账户每天最多 {perAccount} 个收件人，每个地址每天最多 {perAddress} 个链接）。请稍后再试。",
};
