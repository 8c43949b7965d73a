import type { mailEn } from './en.js';

/** The e-mail pages' messages (ja). */
export const mailJa: Record<keyof typeof mailEn, string> = {
  "title.mails": "配信を断念したメール",
  "account.tokens.mails": "配信を断念したメール",
  "mails.heading": "配信を断念したメール",
  "mails.intro": "あなたのアカウントに関するメール、またはあなたが送信したメールのうち、配信できなかったもの：受信側のメールサーバーが拒否したか、再試行期間中どのサーバーも応答しませんでした。内容は表示されません。",
  "mails.none": "配信を断念したメールはありません。",
  "mails.when": "日時",
  "mails.to": "宛先",
  "mails.kind": "種類",
  "mails.reply": "メールサーバーの応答",
  "mails.back": "アカウントに戻る",
  "mails.kind.password-reset": "パスワード再設定リンク",
  "mails.kind.password-reset-no-account": "パスワード再設定（アカウントなし）",
  "mails.kind.password-changed": "パスワード変更のお知らせ",
  "mails.kind.confirm-email": "アドレスの確認",
  "mails.kind.sign-up-existing": "あなたのアドレスでの登録",
  "mails.kind.receipt-opened": "通知：開封",
  "mails.kind.receipt-expired-unopened": "通知：未開封のまま期限切れ",
  "mails.kind.push-link": "受信者に送ったリンク",
};
