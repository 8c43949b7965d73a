import type { Message } from '../../translator.js';
import type { mailLinksEn } from './en.js';

/** The pages' "e-mail the link" messages (ja). */
export const mailLinksJa: Record<keyof typeof mailLinksEn, Message> = {
  "mailLink.create.legend": "リンクをメールで送る（任意）",
  "mailLink.recipients": "受信者のメールアドレス",
  "mailLink.recipientsHint": "最大 {max} 件、カンマ区切り。各アドレスにこのサーバーからリンク入りのメールが個別に届き、返信先はあなたのアドレスです。",
  "mailLink.note": "メールに添える個人メッセージ",
  "mailLink.endToEndNote": "テキストやファイルはこのブラウザーで暗号化されます。リンクの鍵はサーバーに送られません。例外はこれらのメールで、プッシュの作成後にこのページがサーバーに送信を依頼します。受信者のメールサーバーはリンク全体を読めます。",
  "mailLink.endToEndResultNote": "メールには鍵を含むリンク全体が入ります。このページはそのためだけに鍵をサーバーへ送ります。受信者のメールサーバーはそれを読めます。",
  "mailLink.heading": "リンクをメールで送る…",
  "mailLink.send": "メールを送信",
  "mailLink.sending": "送信中…",
  "mailLink.sent": {"other": "リンクを {count} 件のアドレスに送信しています: {addresses}。"},
  "mailLink.keyMissing": "このリンクの鍵は、それを作成したこのブラウザーのページにしかありません。そこから送信してください。",
  "mailLink.failed": "このページからメールを送信できませんでした: {problem}",
  "mailLink.expired": "送信していません: このプッシュは期限切れか削除済みのため、リンクからはもう何も得られません。",
  "field.notify_emails": "受信者",
  "field.notify_note": "個人メッセージ",
  "field.link_key": "リンクの鍵",
  "field.url_token": "プッシュ",
  "service.notEmailAddress": "{address} はメールアドレスではありません",
  "service.atMostAddresses": "は最大 {max} 件までです",
  "service.emailList": "はメールアドレスのリストである必要があります",
  "service.atLeastOneAddress": "には少なくとも 1 件のメールアドレスが必要です",
  "service.anonymousMail": "にはアカウントが必要です: 匿名のプッシュはメールで送れません",
  "service.mailNotSetUp": ": このサーバーではメールが設定されていません",
  "service.endToEndMail": "はエンドツーエンドのプッシュには使えません: サーバーはその鍵を持っていません",
  "service.pushExpired": ": このプッシュは期限切れです",
  "service.linkKeyNeeded": ": エンドツーエンドのプッシュにはリンクの鍵が必要です",
  "service.sentence.tooManyLinkMails": "メールで送られた秘密のリンクが多すぎます（1 アカウントあたり 1 日 {perAccount} 件の受信者、1 アドレスあたり 1 日 {perAddress} 件のリンクまで）。しばらくしてからもう一度お試しください。",
};
