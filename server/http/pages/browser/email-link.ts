// The page after creating and the owner's page: "E-mail the link…" sent from the page (see email-link/send-email-link.ts).
import { enhanceEmailLinkForms } from './email-link/send-email-link.js';

enhanceEmailLinkForms(document);
