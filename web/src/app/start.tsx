import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { ConfigErrorScreen } from '../components/config-error-screen';
import { loadRuntimeConfig } from '../config';
import { loadFormStrings, loadI18n } from '../i18n/i18n';
import { initialLanguage, readStoredLanguage } from '../i18n/language';
import { setApiBasePath } from '../lib/api-client';
import { isAdminPath } from '../paths';
import { PublicApp } from './public-app';

/**
 * Fetches /config.json and the strings of the visitor's language, then renders the public
 * page, or under /admin the staff area (its own chunk). A config failure gets its own
 * bilingual screen.
 */
export async function start(root: Root, fetchImpl: typeof fetch = fetch): Promise<void> {
  const { pathname } = window.location;
  const admin = isAdminPath(pathname);
  // Staff work in English unless they chose Tamil (a Tamil default is the public page's).
  const stored = readStoredLanguage() ?? (admin ? 'en' : undefined);
  // Fetched beside config.json when the language is already known.
  const early = stored ? loadI18n(stored) : undefined;
  const adminApp = admin ? import('./admin-app') : undefined;
  let config;
  try {
    config = await loadRuntimeConfig(fetchImpl);
  } catch {
    root.render(<ConfigErrorScreen onRetry={() => window.location.reload()} />);
    return;
  }
  setApiBasePath(config.apiBasePath);
  const i18n = await (early ?? loadI18n(initialLanguage(config.defaultLanguage)));
  if (adminApp) {
    // The staff area shows applications with the form's option labels.
    const [{ AdminApp }] = await Promise.all([adminApp, loadFormStrings(i18n)]);
    root.render(
      <StrictMode>
        <AdminApp config={config} i18n={i18n} />
      </StrictMode>,
    );
    return;
  }
  root.render(
    <StrictMode>
      <PublicApp config={config} i18n={i18n} pathname={pathname} />
    </StrictMode>,
  );
}
