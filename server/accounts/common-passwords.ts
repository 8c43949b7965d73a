/**
 * Passwords long enough to pass the length rule that are still among the first tried by any
 * guessing tool (breach lists, keyboard walks, repeats). Compared case-insensitively; a password
 * that is one character repeated, or a run of consecutive digits, is refused as well.
 */
const COMMON = new Set(
  [
    'password1234', 'password12345', 'password123456', 'password123!', 'passw0rd1234', 'p@ssw0rd1234', 'p@ssword1234', 'password!234',
    'passwordpassword', 'mypassword123', 'password1234567', 'thisismypassword', 'secretpassword', 'changeme1234', 'changemenow!',
    '123456789012', '1234567890123', '12345678901234', '123456789123', '123123123123', '121212121212', '098765432109', '987654321098',
    '1q2w3e4r5t6y', '1q2w3e4r5t6y7u', '1qaz2wsx3edc', '1qaz2wsx3edc4rfv', 'zaq12wsxcde3', 'zaq1zaq1zaq1', 'qwertyuiop12', 'qwertyuiop123',
    'qwertyuiopasdf', 'qwerty123456', 'qwerty1234567', '123456qwerty', '123qweasdzxc', 'qweasdzxc123', 'asdfghjkl123', 'asdfghjkl;\'',
    'qwertyqwerty', 'asdfasdfasdf', 'zxcvbnm12345', '1234567890qwerty', 'qazwsxedcrfv', 'abc123456789', 'abcdefghijkl', 'abcd12345678',
    'abcdefg12345', 'iloveyou1234', 'iloveyou12345', 'welcome12345', 'welcome123456', 'letmein12345', 'letmeinplease', 'administrator',
    'admin1234567', 'admin123456789', 'football1234', 'baseball1234', 'superman1234', 'princess1234', 'sunshine1234', 'monkey123456',
    'dragon123456', 'starwars1234', 'pokemon12345', 'trustno1trustno1', 'correcthorsebatterystaple', 'correct horse battery staple',
    'iloveyouforever', 'happybirthday', 'mastercard123', 'elephant1234', 'computer1234', 'internet1234', 'whatever1234', 'secretpush123',
  ].map((p) => p.toLowerCase()),
);

/** Whether a password is too common (or too trivial a pattern) to be allowed. */
export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  if (COMMON.has(p)) return true;
  if (/^(.)\1*$/u.test(p)) return true;
  return '01234567890123456789'.includes(p) || '98765432109876543210'.includes(p);
}
