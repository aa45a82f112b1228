import { expect, test } from '../support/fixtures.ts';
import { gotoLanding, useLanguage } from './account-helpers.ts';

/** One bad input per field, with the translated inline message, in two languages. */
const CASES = [
  {
    language: 'zh-CN',
    messages: {
      username: '用户名须为3-20位字母、数字或下划线',
      country: '请选择居住国家/地区',
      password: '密码须至少包含字母、数字、符号中的两种',
      confirmPassword: '两次输入的密码不一致',
      email: '请输入有效的邮箱地址',
      code: '验证码为6位数字',
      agreement: '请阅读并同意用户协议',
      nickname: '昵称不能超过30个字符',
      passwordLength: '密码须为8-128位',
      passwordIsName: '密码不能与用户名或邮箱相同',
    },
  },
  {
    language: 'en',
    messages: {
      username: 'User name must be 3-20 letters, digits or underscores',
      country: 'Select your country/region of residence',
      password: 'Password needs at least two of letters, digits and symbols',
      confirmPassword: 'The passwords do not match',
      email: 'Enter a valid email address',
      code: 'The verification code is 6 digits',
      agreement: 'Please read and accept the User Agreement',
      nickname: 'Nickname must be at most 30 characters',
      passwordLength: 'Password must be 8-128 characters',
      passwordIsName: 'Do not use your user name or email as the password',
    },
  },
] as const;

for (const { language, messages } of CASES) {
  test(`registration shows a translated message for each bad field (${language})`, async ({ page }) => {
    await useLanguage(page, language);
    await gotoLanding(page, '/signIn');
    await page.getByTestId('signup-username').fill('a-b');
    await page.getByTestId('signup-nickname').fill('n'.repeat(31));
    await page.getByTestId('signup-password').fill('abcdefgh');
    await page.getByTestId('signup-confirm').fill('abcdefgX');
    await page.getByTestId('signup-email').fill('not-an-email');
    await page.getByTestId('signup-code').fill('12a');
    await page.getByTestId('signup-submit').click();

    await expect(page.getByTestId('field-error-username')).toHaveText(messages.username);
    await expect(page.getByTestId('field-error-nickname')).toHaveText(messages.nickname);
    await expect(page.getByTestId('field-error-country')).toHaveText(messages.country);
    await expect(page.getByTestId('field-error-password')).toHaveText(messages.password);
    await expect(page.getByTestId('field-error-confirmPassword')).toHaveText(messages.confirmPassword);
    await expect(page.getByTestId('field-error-email')).toHaveText(messages.email);
    await expect(page.getByTestId('field-error-code')).toHaveText(messages.code);
    await expect(page.getByTestId('field-error-agreement')).toHaveText(messages.agreement);
    // Nothing was sent: the page stays put.
    await expect(page).toHaveURL(/\/signIn$/);

    // Fixing a field clears its message as you type; a short one shows the length rule.
    await page.getByTestId('signup-password').fill('abc1');
    await expect(page.getByTestId('field-error-password')).toHaveText(messages.passwordLength);
    await page.getByTestId('signup-password').fill('abcdefg1');
    await expect(page.getByTestId('field-error-password')).toHaveCount(0);
    // The user name as the password is the first guess: refused before anything is sent.
    await page.getByTestId('signup-username').fill('walker_99');
    await page.getByTestId('signup-password').fill('Walker_99');
    await page.getByTestId('signup-submit').click();
    await expect(page.getByTestId('field-error-password')).toHaveText(messages.passwordIsName);
  });
}

test('login needs both fields, and a wrong password is reported (en)', async ({ page }) => {
  await useLanguage(page, 'en');
  await page.goto('/login');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('field-error-identifier')).toHaveText('Enter your email or user name');
  await expect(page.getByTestId('field-error-password')).toHaveText('Enter a password');
  await page.getByTestId('login-identifier').fill('nobody_here');
  await page.getByTestId('login-password').fill('Wrong_pass1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('field-error-password')).toHaveText('Wrong account or password');
});
