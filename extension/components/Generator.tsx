import { useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import { characterSets, passphraseBits, passwordBits, type CharacterSet } from '../lib/generator/password';
import { EFF_WORD_COUNT } from '../lib/generator/word-list';
import type { GenerateRequest } from '../lib/relay';
import { CheckField, FieldError, NumberField } from './Field';

interface Props {
  /** Generates (the background does: lib/relay.ts). */
  generate(what: GenerateRequest): Promise<string>;
  busy: boolean;
  /** Puts the value in the secret field. */
  onUse(value: string): void;
  /** Puts it there and pushes it at once. */
  onPush(value: string): void;
}

const setNames = Object.keys(characterSets) as CharacterSet[];
const bounds = { length: [8, 128], words: [3, 12] } as const;

/**
 * The generator in the push form, loaded when it is opened (components/Lazy.tsx). Its choices
 * are not stored, and the value goes only into the form, which keeps no generated secret.
 */
export function Generator({ generate, busy, onUse, onPush }: Props) {
  const [words, setWords] = useState(false);
  const [length, setLength] = useState<number | undefined>(20);
  const [count, setCount] = useState<number | undefined>(6);
  const [sets, setSets] = useState<CharacterSet[]>(setNames);
  const [problem, setProblem] = useState('');
  const [min, max] = bounds[words ? 'words' : 'length'];
  const n = words ? count : length;
  const badNumber = !(Number.isInteger(n) && n! >= min && n! <= max);
  const bits = badNumber ? 0 : words ? passphraseBits(EFF_WORD_COUNT, n!) : passwordBits({ length: n!, sets });

  async function make(then: (value: string) => void) {
    setProblem('');
    if (badNumber || !bits) return;
    try {
      then(await generate(words ? { words: n! } : { rule: { length: n!, sets } }));
    } catch {
      setProblem(t('gen_list_failed'));
    }
  }

  return (
    <fieldset class="generator">
      <legend>{t('gen_title')}</legend>
      <div class="segmented" role="group" aria-label={t('gen_title')}>
        <button type="button" aria-pressed={!words} onClick={() => setWords(false)}>
          {t('gen_characters')}
        </button>
        <button type="button" aria-pressed={words} onClick={() => setWords(true)}>
          {t('gen_words')}
        </button>
      </div>
      <NumberField
        id={words ? 'gen_count' : 'gen_length'}
        label={t(words ? 'gen_count' : 'gen_length')}
        value={n}
        min={min}
        max={max}
        error={badNumber ? t('gen_between', min, max) : undefined}
        onChange={words ? setCount : setLength}
      />
      {!words && (
        <div class="row">
          {setNames.map((s) => (
            <CheckField
              key={s}
              id={`gen_${s}`}
              label={t(`gen_${s}`)}
              checked={sets.includes(s)}
              onChange={(on) => setSets(setNames.filter((x) => (x === s ? on : sets.includes(x))))}
            />
          ))}
        </div>
      )}
      <FieldError id="gen-error" message={!words && !sets.length ? t('gen_no_set') : problem} />
      <p class="meta" role="status">
        {t('gen_bits', Math.floor(bits))}
      </p>
      <div class="actions">
        <button type="button" disabled={!bits} onClick={() => make(onUse)}>
          {t('gen_generate')}
        </button>
        <button type="button" disabled={!bits || busy} onClick={() => make(onPush)}>
          {t('gen_and_push')}
        </button>
      </div>
    </fieldset>
  );
}
