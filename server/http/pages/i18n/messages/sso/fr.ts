import type { ssoEn } from './en.js';

/** Single sign-on's refusals in French. */
export const ssoFr: Record<keyof typeof ssoEn, string> = {
  'service.sentence.ssoUnreachable': 'Le fournisseur de connexion ({name}) est injoignable. Veuillez réessayer plus tard.',
  'service.sentence.ssoFlowLost': "Cette connexion n'a pas été commencée dans ce navigateur, ou a pris trop de temps. Veuillez recommencer.",
  'service.sentence.ssoCancelled': 'La connexion a été annulée chez le fournisseur.',
  'service.sentence.ssoProviderRefused': "Le fournisseur ne vous a pas connecté. Veuillez recommencer.",
  'service.sentence.ssoUnverifiable': "La réponse du fournisseur de connexion n'a pas pu être vérifiée. Veuillez recommencer.",
  'service.sentence.passwordsOff': 'La connexion par mot de passe est désactivée sur ce serveur : utilisez l’authentification unique (SSO).',
  'service.sentence.ssoNoEmail': "Le fournisseur de connexion n'a pas transmis votre adresse e-mail (demandez le scope « email »).",
  'service.sentence.ssoEmailUnverified': "Le fournisseur de connexion n'a pas vérifié votre adresse e-mail : elle ne peut donc pas servir à se connecter ici.",
  'service.sentence.ssoOtherPerson': "Cette adresse e-mail appartient au compte d'une autre personne chez le fournisseur de connexion. Adressez-vous à un administrateur.",
  'service.sentence.ssoSignUpClosed': "Il n'y a pas de compte pour votre adresse e-mail ici, et aucun nouveau compte n'est créé.",
  'service.sentence.ssoInviteNeeded': "Il n'y a pas de compte pour votre adresse e-mail ici : un nouveau compte demande un lien d'invitation valide.",
  'service.sentence.ssoAccountDeleted': 'Ce compte a été supprimé. Veuillez réessayer.',
  'service.sentence.emailDomainsOnly': 'Les comptes de ce serveur sont réservés aux adresses de {domains}.',
};
