import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { type RuntimeConfig, RuntimeConfigContext } from '../config';
import { createAppRouter } from './router';

export function App({ config, i18n }: { config: RuntimeConfig; i18n: I18n }) {
  const [router] = useState(createAppRouter);
  return (
    <RuntimeConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </RuntimeConfigContext.Provider>
  );
}
