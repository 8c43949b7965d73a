import type { mailEn } from './en.js';

/** The e-mail pages' messages (zh-CN). */
export const mailZhCN: Record<keyof typeof mailEn, string> = {
  "title.mails": "已放弃的邮件",
  "account.tokens.mails": "已放弃的邮件",
  "mails.heading": "已放弃的邮件",
  "mails.intro": "与您的账户有关或由您发送、但无法投递的邮件：接收方邮件服务器拒绝了它们，或在整个重试期间没有服务器应答。不显示其内容。",
  "mails.none": "没有已放弃的邮件。",
  "mails.when": "时间",
  "mails.to": "收件人",
  "mails.kind": "类型",
  "mails.reply": "邮件服务器的答复",
  "mails.back": "返回您的账户",
  "mails.kind.password-reset": "密码重置链接",
  "mails.kind.password-reset-no-account": "密码重置（无账户）",
  "mails.kind.password-changed": "密码已更改通知",
  "mails.kind.confirm-email": "地址确认",
  "mails.kind.sign-up-existing": "使用您的地址注册",
  "mails.kind.receipt-opened": "通知：已打开",
  "mails.kind.receipt-expired-unopened": "通知：未打开即过期",
  "mails.kind.push-link": "发送给收件人的链接",
};
