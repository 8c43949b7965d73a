import type { ssoEn } from './en.js';

/** Single sign-on's refusals in Spanish. */
export const ssoEs: Record<keyof typeof ssoEn, string> = {
  'service.sentence.ssoUnreachable': 'No se puede contactar con el proveedor de inicio de sesión ({name}). Inténtelo de nuevo más tarde.',
  'service.sentence.ssoFlowLost': 'Este inicio de sesión no se comenzó en este navegador o tardó demasiado. Vuelva a empezar.',
  'service.sentence.ssoCancelled': 'El inicio de sesión se canceló en el proveedor.',
  'service.sentence.ssoProviderRefused': 'El proveedor no inició su sesión. Vuelva a empezar.',
  'service.sentence.ssoUnverifiable': 'No se pudo verificar la respuesta del proveedor de inicio de sesión. Vuelva a empezar.',
  'service.sentence.passwordsOff': 'El inicio de sesión con contraseña está desactivado en este servidor: use el inicio de sesión único (SSO).',
  'service.sentence.ssoNoEmail': 'El proveedor de inicio de sesión no indicó su dirección de correo (solicite el scope «email»).',
  'service.sentence.ssoEmailUnverified': 'El proveedor de inicio de sesión no ha verificado su dirección de correo, así que no puede usarse para iniciar sesión aquí.',
  'service.sentence.ssoOtherPerson': 'Esta dirección de correo pertenece a la cuenta de otra persona en el proveedor de inicio de sesión. Consulte a un administrador.',
  'service.sentence.ssoSignUpClosed': 'Aquí no hay ninguna cuenta para su dirección de correo y no se están creando cuentas nuevas.',
  'service.sentence.ssoInviteNeeded': 'Aquí no hay ninguna cuenta para su dirección de correo: las cuentas nuevas necesitan un enlace de invitación válido.',
  'service.sentence.ssoAccountDeleted': 'Esta cuenta se eliminó. Inténtelo de nuevo.',
  'service.sentence.emailDomainsOnly': 'Las cuentas de este servidor son solo para direcciones de {domains}.',
};
