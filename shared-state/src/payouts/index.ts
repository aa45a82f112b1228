export {
  bankAccountRule,
  type ChatApp,
  chatApps,
  chatHandleRule,
  confirmAccountRule,
  type IdentityType,
  identityRule,
  identityTypes,
  ifscShapeRule,
  maskTail,
  nameRule,
  type PixKeyType,
  pixKeyRule,
  pixKeyTypes,
  type Rule,
  upiRule,
} from './rules.ts';
export { verhoeffValid } from './verhoeff.ts';
