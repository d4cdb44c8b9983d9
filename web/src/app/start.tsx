import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { ConfigErrorScreen } from '../components/config-error-screen';
import { loadRuntimeConfig } from '../config';
import { createI18n } from '../i18n/i18n';
import { initialLanguage } from '../i18n/language';
import { setApiBasePath } from '../lib/api-client';
import { App } from './app';

/** Fetches /config.json, then renders the app; a config failure gets its own bilingual screen. */
export async function start(root: Root, fetchImpl: typeof fetch = fetch): Promise<void> {
  let config;
  try {
    config = await loadRuntimeConfig(fetchImpl);
  } catch {
    root.render(<ConfigErrorScreen onRetry={() => window.location.reload()} />);
    return;
  }
  setApiBasePath(config.apiBasePath);
  const i18n = createI18n(initialLanguage(config.defaultLanguage));
  root.render(
    <StrictMode>
      <App config={config} i18n={i18n} />
    </StrictMode>,
  );
}
