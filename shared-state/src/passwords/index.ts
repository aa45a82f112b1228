export {
  isGuessableFundPassword,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type PasswordRule,
  passwordMatchesAccount,
  passwordRule,
} from './rules.ts';
