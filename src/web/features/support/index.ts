// The support feature's public face: the contact form the FAQ page shows too.
export { ContactSupportForm } from './ContactSupportForm';
