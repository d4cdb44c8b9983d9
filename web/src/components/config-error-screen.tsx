import { configErrorText } from '../i18n/both-languages';

const { en, ta } = configErrorText;

/**
 * Shown when /config.json cannot be loaded or is invalid. i18next is not running
 * yet (the default language comes from that file), so it speaks both languages.
 */
export function ConfigErrorScreen({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="config-error" role="alert">
      <img src="/logo.svg" alt="" width="64" height="64" />
      <div lang="ta">
        <h1>{ta.title}</h1>
        <p>{ta.body}</p>
      </div>
      <div lang="en">
        <p className="config-error-title-en">{en.title}</p>
        <p>{en.body}</p>
      </div>
      <button type="button" className="button button-primary" onClick={onRetry}>
        <span lang="ta">{ta.retry}</span> / <span lang="en">{en.retry}</span>
      </button>
    </main>
  );
}
