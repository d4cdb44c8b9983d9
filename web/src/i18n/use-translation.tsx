import type { i18n as I18n, TFunction } from 'i18next';
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';

// react-i18next's provider and hook, cut to what the app uses: one instance from context,
// `t` for one namespace, a re-render when the language changes or strings arrive (a chunk
// that lands after a switch). react-i18next's hook also suspends, loads namespaces through
// backends and wraps the instance per language; none of that is used here, and it cost the
// public page's first view 2 KB gzip.

const I18nContext = createContext<I18n | null>(null);

export function I18nextProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext value={i18n}>{children}</I18nContext>;
}

/**
 * Counts the instance's changes (language switched, strings added), by its store, which
 * every component reading the instance shares. Counted from the first render that reads the
 * instance, by listeners registered before any component's, so that a change between a
 * render and its subscription is not missed.
 */
const versions = new WeakMap<object, number>();

function versionOf(i18n: I18n): number {
  const version = versions.get(i18n.store);
  if (version !== undefined) return version;
  const bump = () => versions.set(i18n.store, (versions.get(i18n.store) ?? 0) + 1);
  i18n.on('languageChanged', bump);
  i18n.store.on('added', bump);
  versions.set(i18n.store, 0);
  return 0;
}

function subscribe(i18n: I18n, changed: () => void): () => void {
  i18n.on('languageChanged', changed);
  i18n.store.on('added', changed);
  return () => {
    i18n.off('languageChanged', changed);
    i18n.store.off('added', changed);
  };
}

type Namespace = 'translation' | 'staff' | 'card' | 'me' | 'grievance';

/** `t` in the current language for `ns` (a new function after each change, as react-i18next's), and the instance. */
export function useTranslation<Ns extends Namespace = 'translation'>(ns?: Ns): { t: TFunction<Ns>; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useTranslation: no <I18nextProvider> above this component');
  const onChange = useMemo(() => (changed: () => void) => subscribe(i18n, changed), [i18n]);
  const version = useSyncExternalStore(onChange, () => versionOf(i18n));
  const language = i18n.language;
  const t = useMemo(
    () => i18n.getFixedT(language, ns ?? 'translation'),
    // `version` is what makes a new `t` after strings were added in the same language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n, language, ns, version],
  );
  return { t: t as TFunction<Ns>, i18n };
}
