import { html, type MailMessage } from './mail-message.js';

/** The page languages (server/http/pages/i18n/locales.ts); an unknown one falls back to English. */
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];

export type MailKind =
  | 'password-reset'
  | 'password-reset-no-account'
  | 'password-changed'
  | 'confirm-email'
  | 'sign-up-existing'
  | 'receipt-opened'
  | 'receipt-expired-unopened'
  | 'push-link'
  | 'request-answered'
  | 'email-change-confirm'
  | 'email-change-taken'
  | 'email-changed';

/** Optional mails (receipts): each carries a List-Unsubscribe link and says where to stop them. */
export const OPTIONAL_MAIL_KINDS: readonly MailKind[] = ['receipt-opened', 'receipt-expired-unopened', 'request-answered'];

interface Template {
  subject: string;
  /** Paragraphs; `{link}` stands for the action's link, `{product}` for the product's name. */
  body: string[];
}

const T: Record<MailKind, Record<Language, Template>> = {
  'password-reset': {
    en: { subject: 'Reset your {product} password', body: ['Someone (we hope you) asked to reset the password of your {product} account.', 'Choose a new password here within one hour: {link}', 'The link works once. Setting a new password signs out every browser signed in to your account.', 'If you did not ask for this, ignore this e-mail: your password stays as it is.'] },
    de: { subject: 'Ihr {product}-Passwort zurücksetzen', body: ['Jemand (hoffentlich Sie) hat angefordert, das Passwort Ihres {product}-Kontos zurückzusetzen.', 'Wählen Sie hier innerhalb einer Stunde ein neues Passwort: {link}', 'Der Link funktioniert einmal. Ein neues Passwort meldet alle Browser ab, die an Ihrem Konto angemeldet sind.', 'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.'] },
    fr: { subject: 'Réinitialiser votre mot de passe {product}', body: ['Quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte {product}.', 'Choisissez un nouveau mot de passe ici dans l’heure : {link}', 'Le lien ne fonctionne qu’une fois. Un nouveau mot de passe déconnecte tous les navigateurs connectés à votre compte.', 'Si vous n’avez rien demandé, ignorez cet e-mail : votre mot de passe reste inchangé.'] },
    es: { subject: 'Restablecer su contraseña de {product}', body: ['Alguien (esperamos que usted) pidió restablecer la contraseña de su cuenta de {product}.', 'Elija una contraseña nueva aquí en el plazo de una hora: {link}', 'El enlace funciona una vez. Una contraseña nueva cierra la sesión de todos los navegadores conectados a su cuenta.', 'Si no lo pidió, ignore este correo: su contraseña no cambia.'] },
    'pt-BR': { subject: 'Redefinir sua senha do {product}', body: ['Alguém (esperamos que você) pediu para redefinir a senha da sua conta do {product}.', 'Escolha uma nova senha aqui dentro de uma hora: {link}', 'O link funciona uma vez. Uma nova senha encerra a sessão de todos os navegadores conectados à sua conta.', 'Se você não pediu isso, ignore este e-mail: sua senha continua a mesma.'] },
    ja: { subject: '{product} のパスワードの再設定', body: ['{product} アカウントのパスワードの再設定が依頼されました。', '1 時間以内に次のリンクから新しいパスワードを設定してください: {link}', 'このリンクは 1 回だけ使えます。新しいパスワードを設定すると、アカウントにサインインしているすべてのブラウザがサインアウトされます。', '心当たりがない場合は、このメールを無視してください。パスワードは変わりません。'] },
    'zh-CN': { subject: '重置您的 {product} 密码', body: ['有人（希望是您）请求重置您的 {product} 账户密码。', '请在一小时内通过此链接设置新密码：{link}', '该链接只能使用一次。设置新密码后，所有已登录您账户的浏览器都会退出登录。', '如果这不是您的请求，请忽略此邮件：您的密码不会改变。'] },
  },
  'password-reset-no-account': {
    en: { subject: 'Password reset requested for {product}', body: ['Someone asked to reset the password of a {product} account for this e-mail address, but there is no account for it.', 'If it was you, perhaps you signed up with another address. If not, ignore this e-mail.'] },
    de: { subject: 'Passwort-Zurücksetzung bei {product} angefordert', body: ['Jemand hat angefordert, das Passwort eines {product}-Kontos für diese E-Mail-Adresse zurückzusetzen, aber für sie gibt es kein Konto.', 'Wenn Sie das waren, haben Sie sich vielleicht mit einer anderen Adresse registriert. Wenn nicht, ignorieren Sie diese E-Mail.'] },
    fr: { subject: 'Réinitialisation de mot de passe demandée sur {product}', body: ['Quelqu’un a demandé à réinitialiser le mot de passe d’un compte {product} pour cette adresse, mais aucun compte ne l’utilise.', 'Si c’était vous, vous vous êtes peut-être inscrit avec une autre adresse. Sinon, ignorez cet e-mail.'] },
    es: { subject: 'Se pidió restablecer una contraseña en {product}', body: ['Alguien pidió restablecer la contraseña de una cuenta de {product} para esta dirección, pero no hay ninguna cuenta con ella.', 'Si fue usted, quizá se registró con otra dirección. Si no, ignore este correo.'] },
    'pt-BR': { subject: 'Redefinição de senha solicitada no {product}', body: ['Alguém pediu para redefinir a senha de uma conta do {product} para este endereço, mas não há conta com ele.', 'Se foi você, talvez tenha se cadastrado com outro endereço. Se não, ignore este e-mail.'] },
    ja: { subject: '{product} でパスワードの再設定が依頼されました', body: ['このメールアドレスの {product} アカウントのパスワード再設定が依頼されましたが、このアドレスのアカウントはありません。', 'ご本人の場合は、別のアドレスで登録したのかもしれません。心当たりがなければ、このメールを無視してください。'] },
    'zh-CN': { subject: '有人在 {product} 请求重置密码', body: ['有人为此邮箱地址请求重置 {product} 账户密码，但该地址没有账户。', '如果是您本人，您可能使用了其他地址注册。如果不是，请忽略此邮件。'] },
  },
  'password-changed': {
    en: { subject: 'Your {product} password was changed', body: ['The password of your {product} account was just changed, and every browser signed in to it was signed out.', 'If this was not you, reset your password at once: {link}'] },
    de: { subject: 'Ihr {product}-Passwort wurde geändert', body: ['Das Passwort Ihres {product}-Kontos wurde soeben geändert, und alle angemeldeten Browser wurden abgemeldet.', 'Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort zurück: {link}'] },
    fr: { subject: 'Votre mot de passe {product} a été modifié', body: ['Le mot de passe de votre compte {product} vient d’être modifié, et tous les navigateurs connectés ont été déconnectés.', 'Si ce n’était pas vous, réinitialisez votre mot de passe tout de suite : {link}'] },
    es: { subject: 'Se cambió su contraseña de {product}', body: ['La contraseña de su cuenta de {product} acaba de cambiar, y se cerró la sesión de todos los navegadores conectados.', 'Si no fue usted, restablezca su contraseña ahora mismo: {link}'] },
    'pt-BR': { subject: 'Sua senha do {product} foi alterada', body: ['A senha da sua conta do {product} acabou de ser alterada, e todos os navegadores conectados foram desconectados.', 'Se não foi você, redefina sua senha agora: {link}'] },
    ja: { subject: '{product} のパスワードが変更されました', body: ['{product} アカウントのパスワードが変更され、サインインしていたすべてのブラウザがサインアウトされました。', '心当たりがない場合は、すぐにパスワードを再設定してください: {link}'] },
    'zh-CN': { subject: '您的 {product} 密码已更改', body: ['您的 {product} 账户密码刚刚被更改，所有已登录的浏览器都已退出登录。', '如果这不是您本人操作，请立即重置密码：{link}'] },
  },
  'confirm-email': {
    en: { subject: 'Confirm your e-mail address for {product}', body: ['Welcome to {product}. To finish making your account, confirm this address within 24 hours: {link}', 'If you did not sign up, ignore this e-mail: the account cannot be used without the confirmation.'] },
    de: { subject: 'Bestätigen Sie Ihre E-Mail-Adresse für {product}', body: ['Willkommen bei {product}. Bestätigen Sie diese Adresse innerhalb von 24 Stunden, um Ihr Konto fertigzustellen: {link}', 'Wenn Sie sich nicht registriert haben, ignorieren Sie diese E-Mail: ohne Bestätigung entsteht kein Konto.'] },
    fr: { subject: 'Confirmez votre adresse e-mail pour {product}', body: ['Bienvenue sur {product}. Pour terminer la création de votre compte, confirmez cette adresse dans les 24 heures : {link}', 'Si vous ne vous êtes pas inscrit, ignorez cet e-mail : sans confirmation, aucun compte n’est utilisable.'] },
    es: { subject: 'Confirme su dirección de correo para {product}', body: ['Bienvenido a {product}. Para terminar su cuenta, confirme esta dirección en 24 horas: {link}', 'Si no se registró, ignore este correo: sin la confirmación la cuenta no se puede usar.'] },
    'pt-BR': { subject: 'Confirme seu endereço de e-mail no {product}', body: ['Boas-vindas ao {product}. Para concluir sua conta, confirme este endereço em até 24 horas: {link}', 'Se você não se cadastrou, ignore este e-mail: sem a confirmação a conta não pode ser usada.'] },
    ja: { subject: '{product} のメールアドレスの確認', body: ['{product} へようこそ。24 時間以内に次のリンクからこのアドレスを確認して、アカウントの作成を完了してください: {link}', '登録した覚えがない場合は、このメールを無視してください。確認されないアカウントは使えません。'] },
    'zh-CN': { subject: '确认您在 {product} 的邮箱地址', body: ['欢迎使用 {product}。请在 24 小时内通过此链接确认此地址，以完成账户创建：{link}', '如果您没有注册，请忽略此邮件：未经确认的账户无法使用。'] },
  },
  'push-link': {
    en: { subject: '{name} sent you a secret', body: ['{name} sent you a secret with {product}.', 'Open it here: {link}', 'The link works for a limited time and number of views; after that the secret is deleted. Do not forward this e-mail.'] },
    de: { subject: '{name} hat Ihnen ein Geheimnis gesendet', body: ['{name} hat Ihnen mit {product} ein Geheimnis gesendet.', 'Hier öffnen: {link}', 'Der Link gilt nur begrenzt lange und für begrenzt viele Aufrufe; danach wird das Geheimnis gelöscht. Leiten Sie diese E-Mail nicht weiter.'] },
    fr: { subject: '{name} vous a envoyé un secret', body: ['{name} vous a envoyé un secret avec {product}.', 'Ouvrez-le ici : {link}', 'Le lien ne fonctionne qu’un temps et un nombre de vues limités ; ensuite le secret est supprimé. Ne transférez pas cet e-mail.'] },
    es: { subject: '{name} le envió un secreto', body: ['{name} le envió un secreto con {product}.', 'Ábralo aquí: {link}', 'El enlace funciona por un tiempo y un número de vistas limitados; después el secreto se borra. No reenvíe este correo.'] },
    'pt-BR': { subject: '{name} enviou um segredo para você', body: ['{name} enviou um segredo para você com o {product}.', 'Abra aqui: {link}', 'O link funciona por tempo e número de visualizações limitados; depois o segredo é apagado. Não encaminhe este e-mail.'] },
    ja: { subject: '{name} さんから秘密が届きました', body: ['{name} さんが {product} で秘密を送りました。', 'こちらから開いてください: {link}', 'リンクの有効期間と表示回数には限りがあり、その後秘密は削除されます。このメールは転送しないでください。'] },
    'zh-CN': { subject: '{name} 给您发送了一个秘密', body: ['{name} 通过 {product} 给您发送了一个秘密。', '在此打开：{link}', '该链接的有效时间和查看次数有限，之后秘密将被删除。请勿转发此邮件。'] },
  },
  'receipt-opened': {
    en: { subject: 'Your push “{name}” was opened', body: ['Your push “{name}” was opened for the first time.', 'Who opened it and when: {link}'] },
    de: { subject: 'Ihr Push „{name}“ wurde geöffnet', body: ['Ihr Push „{name}“ wurde zum ersten Mal geöffnet.', 'Wer ihn wann geöffnet hat: {link}'] },
    fr: { subject: 'Votre push « {name} » a été ouvert', body: ['Votre push « {name} » a été ouvert pour la première fois.', 'Qui l’a ouvert et quand : {link}'] },
    es: { subject: 'Se abrió su push «{name}»', body: ['Su push «{name}» se abrió por primera vez.', 'Quién lo abrió y cuándo: {link}'] },
    'pt-BR': { subject: 'Seu push “{name}” foi aberto', body: ['Seu push “{name}” foi aberto pela primeira vez.', 'Quem abriu e quando: {link}'] },
    ja: { subject: 'プッシュ「{name}」が開かれました', body: ['プッシュ「{name}」が初めて開かれました。', '誰がいつ開いたか: {link}'] },
    'zh-CN': { subject: '您的推送“{name}”已被打开', body: ['您的推送“{name}”首次被打开。', '谁在何时打开：{link}'] },
  },
  'receipt-expired-unopened': {
    en: { subject: 'Your push “{name}” expired unopened', body: ['Your push “{name}” expired without being opened. Nobody saw the secret; it is deleted.', 'Its history: {link}'] },
    de: { subject: 'Ihr Push „{name}“ ist ungeöffnet abgelaufen', body: ['Ihr Push „{name}“ ist abgelaufen, ohne geöffnet zu werden. Niemand hat das Geheimnis gesehen; es ist gelöscht.', 'Sein Verlauf: {link}'] },
    fr: { subject: 'Votre push « {name} » a expiré sans être ouvert', body: ['Votre push « {name} » a expiré sans avoir été ouvert. Personne n’a vu le secret ; il est supprimé.', 'Son historique : {link}'] },
    es: { subject: 'Su push «{name}» caducó sin abrirse', body: ['Su push «{name}» caducó sin que nadie lo abriera. Nadie vio el secreto; se ha borrado.', 'Su historial: {link}'] },
    'pt-BR': { subject: 'Seu push “{name}” expirou sem ser aberto', body: ['Seu push “{name}” expirou sem ser aberto. Ninguém viu o segredo; ele foi apagado.', 'O histórico: {link}'] },
    ja: { subject: 'プッシュ「{name}」は開かれないまま期限切れになりました', body: ['プッシュ「{name}」は一度も開かれずに期限切れになりました。秘密は誰にも見られずに削除されました。', '履歴: {link}'] },
    'zh-CN': { subject: '您的推送“{name}”未被打开即已过期', body: ['您的推送“{name}”在未被打开的情况下已过期。没有人看到该秘密；它已被删除。', '历史记录：{link}'] },
  },
  'sign-up-existing': {
    en: { subject: 'Someone tried to sign up to {product} with your address', body: ['Someone tried to make a {product} account with this e-mail address, but you already have one.', 'If it was you, sign in instead; if you forgot your password, reset it here: {link}', 'If it was not you, ignore this e-mail: nothing changed.'] },
    de: { subject: 'Registrierungsversuch bei {product} mit Ihrer Adresse', body: ['Jemand hat versucht, mit dieser E-Mail-Adresse ein {product}-Konto anzulegen, aber Sie haben bereits eines.', 'Wenn Sie das waren, melden Sie sich an; wenn Sie Ihr Passwort vergessen haben, setzen Sie es hier zurück: {link}', 'Wenn nicht, ignorieren Sie diese E-Mail: nichts wurde geändert.'] },
    fr: { subject: 'Tentative d’inscription sur {product} avec votre adresse', body: ['Quelqu’un a essayé de créer un compte {product} avec cette adresse, mais vous en avez déjà un.', 'Si c’était vous, connectez-vous ; si vous avez oublié votre mot de passe, réinitialisez-le ici : {link}', 'Sinon, ignorez cet e-mail : rien n’a changé.'] },
    es: { subject: 'Alguien intentó registrarse en {product} con su dirección', body: ['Alguien intentó crear una cuenta de {product} con esta dirección, pero usted ya tiene una.', 'Si fue usted, inicie sesión; si olvidó su contraseña, restablézcala aquí: {link}', 'Si no fue usted, ignore este correo: nada cambió.'] },
    'pt-BR': { subject: 'Tentativa de cadastro no {product} com seu endereço', body: ['Alguém tentou criar uma conta do {product} com este endereço, mas você já tem uma.', 'Se foi você, entre na sua conta; se esqueceu a senha, redefina aqui: {link}', 'Se não foi você, ignore este e-mail: nada mudou.'] },
    ja: { subject: 'あなたのアドレスで {product} への登録が試みられました', body: ['このメールアドレスで {product} アカウントの作成が試みられましたが、すでにアカウントがあります。', 'ご本人の場合はサインインしてください。パスワードを忘れた場合はこちらから再設定できます: {link}', '心当たりがない場合は、このメールを無視してください。何も変更されていません。'] },
    'zh-CN': { subject: '有人尝试用您的地址注册 {product}', body: ['有人尝试用此邮箱地址创建 {product} 账户，但您已经有一个账户。', '如果是您本人，请直接登录；如果忘记了密码，请在此重置：{link}', '如果不是您，请忽略此邮件：没有任何更改。'] },
  },
  'request-answered': {
    en: { subject: 'Your request “{name}” was answered', body: ['Someone answered your secret request “{name}”. The answer is a push of yours now.', 'Its history, and the answer for you when signed in: {link}'] },
    de: { subject: 'Ihre Anfrage „{name}“ wurde beantwortet', body: ['Jemand hat Ihre Geheimnis-Anfrage „{name}“ beantwortet. Die Antwort ist jetzt ein Push von Ihnen.', 'Ihr Verlauf und, angemeldet, die Antwort: {link}'] },
    fr: { subject: 'Votre demande « {name} » a reçu une réponse', body: ['Quelqu’un a répondu à votre demande de secret « {name} ». La réponse est maintenant un de vos pushs.', 'Son historique, et la réponse une fois connecté : {link}'] },
    es: { subject: 'Su solicitud «{name}» fue respondida', body: ['Alguien respondió a su solicitud de secreto «{name}». La respuesta ahora es un push suyo.', 'Su historial y, con la sesión iniciada, la respuesta: {link}'] },
    'pt-BR': { subject: 'Sua solicitação “{name}” foi respondida', body: ['Alguém respondeu à sua solicitação de segredo “{name}”. A resposta agora é um push seu.', 'O histórico e, conectado, a resposta: {link}'] },
    ja: { subject: 'リクエスト「{name}」に回答がありました', body: ['秘密のリクエスト「{name}」に回答がありました。回答はあなたのプッシュになっています。', '履歴と (サインイン後) 回答: {link}'] },
    'zh-CN': { subject: '您的请求“{name}”已得到回复', body: ['有人回复了您的秘密请求“{name}”。回复现在是您的一个推送。', '其历史记录，以及登录后的回复：{link}'] },
  },
  'email-change-confirm': {
    en: { subject: 'Confirm your new e-mail address for {product}', body: ['Someone (we hope you) asked to change the address of a {product} account to this one ({name}).', 'Confirm the change within 24 hours: {link}', 'The link works once. Until then the account keeps its old address. If you did not ask for this, ignore this e-mail.'] },
    de: { subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse für {product}', body: ['Jemand (hoffentlich Sie) hat angefordert, die Adresse eines {product}-Kontos in diese ({name}) zu ändern.', 'Bestätigen Sie die Änderung innerhalb von 24 Stunden: {link}', 'Der Link funktioniert einmal. Bis dahin behält das Konto seine alte Adresse. Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.'] },
    fr: { subject: 'Confirmez votre nouvelle adresse e-mail pour {product}', body: ['Quelqu’un (vous, espérons-le) a demandé à remplacer l’adresse d’un compte {product} par celle-ci ({name}).', 'Confirmez le changement dans les 24 heures : {link}', 'Le lien ne fonctionne qu’une fois. D’ici là, le compte garde son ancienne adresse. Si vous n’avez rien demandé, ignorez cet e-mail.'] },
    es: { subject: 'Confirme su nueva dirección de correo para {product}', body: ['Alguien (esperamos que usted) pidió cambiar la dirección de una cuenta de {product} a esta ({name}).', 'Confirme el cambio en 24 horas: {link}', 'El enlace funciona una vez. Hasta entonces la cuenta conserva su dirección anterior. Si no lo pidió, ignore este correo.'] },
    'pt-BR': { subject: 'Confirme seu novo endereço de e-mail no {product}', body: ['Alguém (esperamos que você) pediu para mudar o endereço de uma conta do {product} para este ({name}).', 'Confirme a mudança em até 24 horas: {link}', 'O link funciona uma vez. Até lá a conta mantém o endereço antigo. Se você não pediu isso, ignore este e-mail.'] },
    ja: { subject: '{product} の新しいメールアドレスの確認', body: ['{product} アカウントのアドレスをこのアドレス ({name}) に変更するよう依頼がありました。', '24 時間以内に変更を確認してください: {link}', 'このリンクは 1 回だけ使えます。確認されるまでアカウントは元のアドレスのままです。心当たりがない場合は、このメールを無視してください。'] },
    'zh-CN': { subject: '确认您在 {product} 的新邮箱地址', body: ['有人（希望是您）请求将一个 {product} 账户的地址改为此地址（{name}）。', '请在 24 小时内确认更改：{link}', '该链接只能使用一次。确认之前账户保留原地址。如果这不是您的请求，请忽略此邮件。'] },
  },
  'email-change-taken': {
    en: { subject: 'Address change requested on {product}', body: ['Someone asked to change the address of a {product} account to this one, but this address already has an account, so nothing changed.', 'If you forgot that account’s password, reset it here: {link}'] },
    de: { subject: 'Adressänderung bei {product} angefordert', body: ['Jemand hat angefordert, die Adresse eines {product}-Kontos in diese zu ändern, aber für diese Adresse gibt es bereits ein Konto; nichts wurde geändert.', 'Wenn Sie das Passwort dieses Kontos vergessen haben, setzen Sie es hier zurück: {link}'] },
    fr: { subject: 'Changement d’adresse demandé sur {product}', body: ['Quelqu’un a demandé à remplacer l’adresse d’un compte {product} par celle-ci, mais un compte l’utilise déjà : rien n’a changé.', 'Si vous avez oublié le mot de passe de ce compte, réinitialisez-le ici : {link}'] },
    es: { subject: 'Se pidió un cambio de dirección en {product}', body: ['Alguien pidió cambiar la dirección de una cuenta de {product} a esta, pero esta dirección ya tiene una cuenta, así que nada cambió.', 'Si olvidó la contraseña de esa cuenta, restablézcala aquí: {link}'] },
    'pt-BR': { subject: 'Mudança de endereço solicitada no {product}', body: ['Alguém pediu para mudar o endereço de uma conta do {product} para este, mas este endereço já tem uma conta; nada mudou.', 'Se você esqueceu a senha dessa conta, redefina aqui: {link}'] },
    ja: { subject: '{product} でアドレスの変更が依頼されました', body: ['{product} アカウントのアドレスをこのアドレスに変更するよう依頼がありましたが、このアドレスにはすでにアカウントがあるため、何も変更されていません。', 'そのアカウントのパスワードを忘れた場合は、こちらから再設定できます: {link}'] },
    'zh-CN': { subject: '有人在 {product} 请求更改地址', body: ['有人请求将一个 {product} 账户的地址改为此地址，但此地址已有账户，因此没有任何更改。', '如果您忘记了该账户的密码，请在此重置：{link}'] },
  },
  'email-changed': {
    en: { subject: 'The e-mail address of your {product} account was changed', body: ['The address of your {product} account was just changed from this one to {name}. E-mails for the account now go there.', 'If this was not you, ask an administrator at once: {link}'] },
    de: { subject: 'Die E-Mail-Adresse Ihres {product}-Kontos wurde geändert', body: ['Die Adresse Ihres {product}-Kontos wurde soeben von dieser in {name} geändert. E-Mails zum Konto gehen jetzt dorthin.', 'Wenn Sie das nicht waren, wenden Sie sich sofort an einen Administrator: {link}'] },
    fr: { subject: 'L’adresse e-mail de votre compte {product} a été modifiée', body: ['L’adresse de votre compte {product} vient de passer de celle-ci à {name}. Les e-mails du compte y sont désormais envoyés.', 'Si ce n’était pas vous, contactez un administrateur tout de suite : {link}'] },
    es: { subject: 'Se cambió la dirección de correo de su cuenta de {product}', body: ['La dirección de su cuenta de {product} acaba de cambiar de esta a {name}. Los correos de la cuenta van ahora allí.', 'Si no fue usted, avise a un administrador ahora mismo: {link}'] },
    'pt-BR': { subject: 'O endereço de e-mail da sua conta do {product} foi alterado', body: ['O endereço da sua conta do {product} acabou de mudar deste para {name}. Os e-mails da conta agora vão para lá.', 'Se não foi você, avise um administrador agora: {link}'] },
    ja: { subject: '{product} アカウントのメールアドレスが変更されました', body: ['{product} アカウントのアドレスがこのアドレスから {name} に変更されました。アカウントのメールは今後そちらに届きます。', '心当たりがない場合は、すぐに管理者に連絡してください: {link}'] },
    'zh-CN': { subject: '您的 {product} 账户邮箱地址已更改', body: ['您的 {product} 账户地址刚刚从此地址改为 {name}。账户的邮件今后将发送到那里。', '如果这不是您本人操作，请立即联系管理员：{link}'] },
  },
};

/** The last line of an optional mail: where to stop that kind of mail. */
const STOP: Record<Language, string> = {
  en: 'Stop these e-mails (your account’s default for new pushes and requests): {stop}',
  de: 'Diese E-Mails abbestellen (die Voreinstellung Ihres Kontos für neue Pushs und Anfragen): {stop}',
  fr: 'Ne plus recevoir ces e-mails (le réglage par défaut de votre compte pour les nouveaux pushs et demandes) : {stop}',
  es: 'Dejar de recibir estos correos (el valor predeterminado de su cuenta para nuevos pushes y solicitudes): {stop}',
  'pt-BR': 'Parar estes e-mails (o padrão da sua conta para novos pushes e solicitações): {stop}',
  ja: 'このメールの配信を停止する (新しいプッシュとリクエストに対するアカウントの既定の設定): {stop}',
  'zh-CN': '停止接收此类邮件（您账户对新推送和请求的默认设置）：{stop}',
};

/** Why an optional mail was sent, one paragraph per language; `{settings}` stands for `settingsUrl` (server/mail/receipt-cause.ts). */
export interface MailCause {
  text: Record<Language, string>;
  settingsUrl?: string;
}

export function mailLanguage(locale: string | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(locale ?? '') ? (locale as Language) : 'en';
}

/**
 * The message of `kind` in `locale` to `to`, with `link` in both parts (the HTML one as a link),
 * signed by `product` (the instance's BRAND_NAME, or Secret Push).
 */
export function composeMail(kind: MailKind, locale: string | undefined, to: string, link: string, product: string, name = '', note?: string, unsubscribeUrl?: string, why?: MailCause): MailMessage {
  const language = mailLanguage(locale);
  const template = T[kind][language];
  const t = { ...template, body: [...template.body, ...(why ? [why.text[language]] : []), ...(unsubscribeUrl ? [STOP[language]] : [])] };
  const settings = why?.settingsUrl ?? '';
  const fill = (s: string) => s.replaceAll('{product}', product).replaceAll('{name}', name);
  // A sender's note is quoted as typed, after the first paragraph: text only, escaped in the HTML part.
  const quoted = note ? note.split(/\r\n|\r|\n/).map((l) => `> ${l}`).join('\n') : undefined;
  const text = t.body.map((p, i) => fill(p).replaceAll('{link}', link).replaceAll('{stop}', unsubscribeUrl ?? '').replaceAll('{settings}', settings) + (i === 0 && quoted ? `\n\n${quoted}` : '')).join('\n\n');
  const htmlBody = t.body
    .map(
      (p, i) =>
        `<p>${html(fill(p))
          .replaceAll('{link}', `<a href="${html(link)}">${html(link)}</a>`)
          .replaceAll('{stop}', unsubscribeUrl ? `<a href="${html(unsubscribeUrl)}">${html(unsubscribeUrl)}</a>` : '')
          .replaceAll('{settings}', settings ? `<a href="${html(settings)}">${html(settings)}</a>` : '')}</p>` + (i === 0 && note ? `<blockquote style="white-space:pre-wrap">${html(note)}</blockquote>` : ''),
    )
    .join('\n');
  return {
    to: [to],
    subject: fill(t.subject),
    text: `${text}\n\n-- \n${product}\n`,
    html: `<!doctype html><html lang="${language}"><body>${htmlBody}<p>— ${html(product)}</p></body></html>`,
    language,
    ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
  };
}
