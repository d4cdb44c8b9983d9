import { en } from '../i18n/en';
import { ta } from '../i18n/ta';

/**
 * Shown when /config.json cannot be loaded or is invalid. i18next is not running
 * yet (the default language comes from that file), so it speaks both languages.
 */
export function ConfigErrorScreen({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="config-error" role="alert">
      <img src="/logo.svg" alt="" width="64" height="64" />
      <div lang="ta">
        <h1>{ta.configError.title}</h1>
        <p>{ta.configError.body}</p>
      </div>
      <div lang="en">
        <p className="config-error-title-en">{en.configError.title}</p>
        <p>{en.configError.body}</p>
      </div>
      <button type="button" className="button button-primary" onClick={onRetry}>
        <span lang="ta">{ta.configError.retry}</span> / <span lang="en">{en.configError.retry}</span>
      </button>
    </main>
  );
}
